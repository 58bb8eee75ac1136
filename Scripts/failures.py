"""The failure reasons the core declares: CommonFailure and each parser's `Failure` enum, read
from their Swift sources. Shared by registry.py (the C interface's message table) and
failure-reachability.py (every reason reached by a test, or marked defensive)."""
import re
from pathlib import Path

SOURCES = Path(__file__).resolve().parent.parent / "Sources" / "ImageProbe"


def enums():
    """One dict per failure enum, in file order: `path`, `name`, `owner` (the parser type whose
    `kind` owns it, or None for CommonFailure), and `cases`: (case, message, defensive) in
    declaration order, which is their raw values' order (0, 1, 2...)."""
    found = []
    for path in sorted(SOURCES.rglob("*.swift")):
        text = path.read_text(encoding="utf-8")
        for enum in re.finditer(r"enum (Failure|CommonFailure): UInt8, FailureReason[^{]*\{", text):
            start = enum.end()
            depth, index = 1, start
            while depth and index < len(text):
                depth += {"{": 1, "}": -1}.get(text[index], 0)
                index += 1
            body = text[start:index]
            lines = body.splitlines()
            cases = []
            for number, line in enumerate(lines):
                match = re.match(r"\s*case ([a-zA-Z0-9_, ]+?)\s*(//.*)?$", line)
                if not match or ":" in line.split("//")[0]:  # a `case .x: "message"` line
                    continue
                comment = (match.group(2) or "").lower()
                above = lines[number - 1].strip().lower() if number else ""
                defensive = "defensive" in comment or above.startswith("/// defensive")
                cases += [(name.strip(), defensive) for name in match.group(1).split(",") if name.strip()]
            if any("=" in name for name, _ in cases):
                raise SystemExit(f"{path.name}: a failure reason with an explicit raw value; the message table assumes 0, 1, 2...")
            messages = dict(re.findall(r'case \.([a-zA-Z0-9_]+): "((?:[^"\\]|\\.)*)"', body))
            owner = re.search(r"static var owner: UInt8 \{ (\w+)\.kind\.rawValue \}", body)
            found.append({"path": path, "name": enum.group(1), "owner": owner.group(1) if owner else None,
                          "cases": [(name, messages.get(name), defensive) for name, defensive in cases]})
    return found


def declared():
    """(owner, case, message, defensive) for every failure reason."""
    return [(f"{enum['path'].stem}.{enum['name']}", name, message, defensive)
            for enum in enums() for name, message, defensive in enum["cases"]]
