#!/usr/bin/env python3
"""Checks, without an Apple machine, that the package builds at its declared Apple floors.

    python3 Scripts/availability.py [--list]

The floors are read from Package.swift (`swift package dump-package`). Availability facts come
from the toolchain's own standard-library interfaces (Swift, _Concurrency, _StringProcessing:
`lib/swift/linux/*.swiftmodule/*.swiftinterface`), whose `@available` attributes name the Apple
version each API was introduced in.

1. The core module (`Sources/ImageProbe`, standard library only) is type-checked by the
   compiler itself for macOS, iOS, tvOS and watchOS at the declared floors: the interfaces are
   compiled into standard-library modules for each Apple triple (cached in
   .build/availability), and `swiftc -typecheck -target <triple>` enforces availability
   exactly as Xcode would. A second run at a lower floor lists every API the core uses that is
   newer than that, with its version.
2. The targets that import Foundation (ImageProbeFoundation, ImageProbeFetch, the CLI) cannot
   be type-checked that way: the Linux Foundation ships no interface. Their sources are scanned
   for every standard-library type, free function, initializer and labelled method that the
   interfaces mark newer than the floor; a use must sit inside a declaration or `if #available`
   block that covers it. Foundation's own APIs carry no Apple availability on Linux: the few
   newer than the floors that this package could reach for are listed in FOUNDATION below.

Exits 1 on any API used above a floor without `@available`. visionOS (arm64 only, and whose
1.0 postdates every API above the other floors) is not compiled.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ["Swift", "_Concurrency", "_StringProcessing"]
# Apple platform → (name in @available, triple pattern for an x86_64 target, a lower floor
# for listing). x86_64, because the Linux interfaces include Float80.
PLATFORMS = {
    "macos": ("macOS", "x86_64-apple-macosx{}", "10.13"),
    "ios": ("iOS", "x86_64-apple-ios{}-simulator", "12.0"),
    "tvos": ("tvOS", "x86_64-apple-tvos{}-simulator", "12.0"),
    "watchos": ("watchOS", "x86_64-apple-watchos{}-simulator", "4.0"),
}
# Foundation APIs newer than the floors (Apple's documentation), matched as in the scan below.
# The Apple releases the APIs below arrived in.
APPLE_2020 = {"macOS": "10.15.4", "iOS": "13.4", "tvOS": "13.4", "watchOS": "6.2"}
APPLE_2021 = {"macOS": "12.0", "iOS": "15.0", "tvOS": "15.0", "watchOS": "8.0"}
APPLE_2022 = {"macOS": "13.0", "iOS": "16.0", "tvOS": "16.0", "watchOS": "9.0"}
FOUNDATION = {
    r"\.path\(percentEncoded:": APPLE_2022,
    r"\bURL\(filePath:": APPLE_2022,
    r"\.appending\(path:": APPLE_2022,
    r"\.withLock\s*\{": APPLE_2022,
    r"\.formatted\(": APPLE_2021,
    r"\.data\(for:": APPLE_2021,
    r"\.bytes\(for:": APPLE_2021,
    r"\.read\(upToCount:": APPLE_2020,
    r"\.readToEnd\(\)": APPLE_2020,
    r"\.seekToEnd\(\)": APPLE_2020,
    r"\.offset\(\)": APPLE_2020,
    r"\bTask\.sleep\(for:": APPLE_2022,
    r"\.delegate\s*=": APPLE_2021,
}


def version_tuple(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def floors():
    package = json.loads(run(["swift", "package", "dump-package"], cwd=ROOT).stdout)
    return {entry["platformName"]: entry["version"] for entry in package.get("platforms", [])}


def toolchain_paths():
    info = json.loads(run(["swiftc", "-print-target-info"]).stdout)["paths"]
    resource = info["runtimeResourcePath"]
    return os.path.join(resource, "linux"), os.path.join(resource, "shims")


def interface_path(library, module):
    directory = os.path.join(library, module + ".swiftmodule")
    for name in sorted(os.listdir(directory)):
        if name.endswith(".swiftinterface") and ".private." not in name:
            return os.path.join(directory, name)
    raise SystemExit("no interface for %s in %s" % (module, directory))


def standard_library_for(triple, library, shims):
    """The standard-library modules compiled from the Linux interfaces for an Apple triple."""
    version = run(["swiftc", "--version"]).stdout.strip().splitlines()[0]
    out = os.path.join(ROOT, ".build", "availability", triple)
    stamp = os.path.join(out, "stamp")
    if os.path.exists(stamp) and open(stamp).read() == version:
        return out
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    for module in MODULES:
        text = open(interface_path(library, module)).read()
        head, body = text.split("\n", 5)[:5], text.split("\n", 5)[5]
        # Retarget, and skip availability checks inside the library's own inlinable code; the
        # bodies of back-deployed functions are not in the Linux interface, so the attribute
        # goes (those APIs keep their @available, which is what clients are checked against).
        head = [re.sub(r"-target \S+", "-target %s -disable-availability-checking" % triple, line) for line in head]
        body = re.sub(r"(?m)^\s*@backDeployed\(.*\)\s*$\n", "", body)
        source = os.path.join(out, "src", module + ".swiftinterface")
        with open(source, "w") as handle:
            handle.write("\n".join(head) + "\n" + body)
        command = ["swiftc", "-frontend", "-compile-module-from-interface", "-target", triple,
                   "-module-name", module, "-I", out, "-I", shims,
                   "-o", os.path.join(out, module + ".swiftmodule"), source]
        if module == "Swift":
            command.append("-parse-stdlib")
        result = run(command)
        if result.returncode != 0:
            sys.stderr.write(result.stderr[-4000:])
            raise SystemExit("could not compile %s for %s" % (module, triple))
    with open(stamp, "w") as handle:
        handle.write(version)
    return out


DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$", re.M)
ONLY_AVAILABLE = re.compile(r"'?(?P<api>.+?)'? is only available in (?P<platform>\w+) (?P<version>[\d.]+) or newer")
# Artefacts of a standard library rebuilt from its Linux interface, not findings: pointer
# conversion intrinsics the interface doesn't carry.
ARTEFACTS = ("broken standard library",)


def typecheck(triple, modules, shims, sources):
    command = ["swiftc", "-frontend", "-typecheck", "-target", triple, "-sdk", os.path.join(modules, "sdk"),
               "-resource-dir", os.path.join(modules, "resources"), "-I", modules, "-I", shims,
               "-module-name", "ImageProbe", "-package-name", "ImageProbe", "-swift-version", "6",
               "-parse-as-library"] + sources
    result = run(command, cwd=ROOT)
    findings, others, artefacts = [], [], 0
    for match in DIAGNOSTIC.finditer(result.stderr):
        message = match.group("message")
        where = "%s:%s" % (os.path.relpath(match.group("file"), ROOT), match.group("line"))
        available = ONLY_AVAILABLE.search(message)
        if available:
            findings.append((where, available.group("api"), available.group("platform"), available.group("version")))
        elif any(text in message for text in ARTEFACTS):
            artefacts += 1
        else:
            others.append("%s: %s" % (where, message))
    return sorted(set(findings)), sorted(set(others)), artefacts


# --- the scan for targets that import Foundation -------------------------------------------

AVAILABLE = re.compile(r"@available\(([^)]*)\)")


def platform_versions(arguments):
    """{'macOS': '13.0', ...} from the arguments of an @available attribute."""
    versions = {}
    for part in arguments.split(","):
        words = part.strip().split()
        if len(words) == 2 and re.fullmatch(r"[\d.]+", words[1]):
            versions[words[0]] = words[1]
    return versions


def strip_code(line):
    """A line without string literals and comments, for brace counting and matching."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def interface_index(library):
    """Newer-than-ever APIs of the standard library: patterns for their uses, with versions."""
    index = {}
    unversioned = {}
    for module in MODULES:
        lines = open(interface_path(library, module)).read().splitlines()
        pending = None
        scope = []  # (type name or None, versions, depth)
        depth = 0
        for line in lines:
            code = strip_code(line)
            stripped = code.strip()
            attribute = AVAILABLE.search(stripped) if stripped.startswith("@available") else None
            if attribute:
                versions = platform_versions(attribute.group(1))
                if versions:
                    pending = versions
                continue
            if stripped.startswith("@") and not re.search(r"\b(func|init|struct|class|enum|protocol|extension|var|typealias|actor)\b", stripped):
                continue
            inherited = scope[-1][1] if scope else None
            versions = pending or inherited
            declaration = re.search(r"\b(struct|class|enum|protocol|actor|extension|func|init|typealias)\b\s*([A-Za-z_][\w.]*)?", stripped)
            if declaration and versions and "macOS" in versions:
                kind, name = declaration.group(1), declaration.group(2) or ""
                if kind == "init":
                    name = "init"
                owner = scope[-1][0] if scope else None
                # A member introduced with its type is caught by the type's name.
                if owner and pending and inherited == pending:
                    pending = None
                short = name.split(".")[-1]
                pattern = None
                if kind in ("struct", "class", "enum", "protocol", "actor", "typealias") and not owner and not short.startswith("_"):
                    pattern = r"\b%s\b" % re.escape(short)
                elif kind == "func" and not short.startswith("_") and pending:
                    labels = re.search(r"\(\s*(\w+)[\s:]", stripped[stripped.find(short) + len(short):] if short else "")
                    label = labels.group(1) if labels and labels.group(1) != "_" else None
                    if owner is None and not label:
                        pattern = r"(?<![.\w])%s\s*\(" % re.escape(short)
                    elif label:
                        pattern = r"\.%s\s*\(\s*%s:" % (re.escape(short), re.escape(label))
                elif kind == "init" and owner and pending:
                    labels = re.search(r"init[?!]?(?:<[^>]*>)?\(\s*(\w+)[\s:]", stripped)
                    label = labels.group(1) if labels and labels.group(1) != "_" else None
                    if label:
                        pattern = r"\b%s\s*\(\s*%s:" % (re.escape(owner.split(".")[-1]), re.escape(label))
                if pattern and short and not short.startswith("_"):
                    shown = "%s.%s" % (owner, short) if owner and kind != "init" else (owner + ".init" if kind == "init" else short)
                    index.setdefault(pattern, (shown, versions))
            if declaration and declaration.group(1) in ("func", "init"):
                # Every overload's pattern, so a name whose older overload needs nothing (the
                # element `split(separator:)` beside macOS 13's collection one) isn't flagged:
                # text can't tell overloads apart, the compiler can.
                kind, name = declaration.group(1), declaration.group(2) or ""
                short = "init" if kind == "init" else name.split(".")[-1]
                rest = stripped[stripped.find(short) + len(short):] if short else ""
                labels = re.search(r"^[?!]?(?:<[^>]*>)?\(\s*(\w+)[\s:]", rest)
                label = labels.group(1) if labels and labels.group(1) != "_" else None
                key = (short, label)
                older = not versions or "macOS" not in versions
                unversioned[key] = unversioned.get(key, False) or older
            opened, closed = code.count("{"), code.count("}")
            if opened > closed and declaration:
                kind, name = declaration.group(1), declaration.group(2) or ""
                is_type = kind in ("struct", "class", "enum", "protocol", "actor", "extension")
                scope.append((name if is_type else (scope[-1][0] if scope else None), versions, depth))
            depth += opened - closed
            while scope and depth <= scope[-1][2]:
                scope.pop()
            if stripped and not stripped.startswith("@"):
                pending = None
    for pattern, (shown, _) in list(index.items()):
        short = shown.split(".")[-1]
        label = re.search(r"\\s\*(\w+):$", pattern)
        if unversioned.get((short, label.group(1) if label else None)):
            del index[pattern]
    return index


def guarded_ranges(lines):
    """Line ranges (0-based, inclusive) covered by @available declarations or #available blocks,
    with the versions each covers."""
    ranges = []
    for number, line in enumerate(lines):
        code = strip_code(line)
        versions = None
        match = AVAILABLE.search(code)
        if match:
            versions = platform_versions(match.group(1))
        condition = re.search(r"#available\(([^)]*)\)", code)
        if condition:
            versions = platform_versions(condition.group(1))
        if not versions:
            continue
        # The scope: from the first { at or after this line to its match.
        depth, started, end = 0, False, None
        for later in range(number, len(lines)):
            text = strip_code(lines[later])
            for character in text:
                if character == "{":
                    depth += 1
                    started = True
                elif character == "}":
                    depth -= 1
                    if started and depth == 0:
                        end = later
                        break
            if end is not None:
                break
        ranges.append((number, end if end is not None else len(lines) - 1, versions))
    return ranges


def covers(versions, platform, needed):
    have = versions.get(platform)
    return have is not None and version_tuple(have) >= version_tuple(needed)


def scan_target(directory, index, target_floors):
    findings = []
    for folder, _, names in os.walk(os.path.join(ROOT, directory)):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            lines = open(path).read().splitlines()
            ranges = guarded_ranges(lines)
            for number, line in enumerate(lines):
                code = strip_code(line)
                if re.match(r"\s*(///|\*)", line):
                    continue
                for pattern, (shown, versions) in list(index.items()) + [(p, (p, v)) for p, v in FOUNDATION.items()]:
                    if not re.search(pattern, code):
                        continue
                    for platform, (name_in_attribute, _, _) in PLATFORMS.items():
                        needed = versions.get(name_in_attribute)
                        floor = target_floors.get(platform)
                        if needed is None or floor is None:
                            continue
                        if version_tuple(needed) <= version_tuple(floor):
                            continue
                        guarded = any(start <= number <= end and covers(v, name_in_attribute, needed) for start, end, v in ranges)
                        findings.append((os.path.relpath(path, ROOT) + ":%d" % (number + 1), shown, name_in_attribute, needed, guarded))
    return findings


def main():
    listing = "--list" in sys.argv
    declared = floors()
    missing = [p for p in PLATFORMS if p not in declared]
    if missing:
        raise SystemExit("Package.swift declares no floor for: " + ", ".join(missing))
    library, shims = toolchain_paths()
    failed = False
    core = sorted(os.path.join(folder, name) for folder, _, names in os.walk(os.path.join(ROOT, "Sources", "ImageProbe"))
                  for name in names if name.endswith(".swift"))
    print("== the core module, type-checked for each Apple platform at its floor")
    for platform, (name, pattern, lower) in PLATFORMS.items():
        modules = standard_library_for(pattern.format(lower), library, shims)
        at_floor, others, artefacts = typecheck(pattern.format(declared[platform]), modules, shims, core)
        used, _, _ = typecheck(pattern.format(lower), modules, shims, core)
        print("%-8s floor %-6s %d uses of APIs newer than %s %s;"
              " %d above the floor without @available; %d interface artefacts ignored"
              % (name, declared[platform], len(used), name, lower, len(at_floor), artefacts))
        if listing:
            for where, api, _, version in used:
                print("    %s %s: %s %s" % (where, api, name, version))
        for where, api, _, version in at_floor:
            print("  FAIL %s: %s needs %s %s" % (where, api, name, version))
            failed = True
        for other in others:
            print("  FAIL %s" % other)
            failed = True
    print("== targets that import Foundation: uses of newer standard-library and Foundation APIs")
    index = interface_index(library)
    print("   (%d standard-library APIs with Apple availability indexed)" % len(index))
    # The shipped targets. (ImageProbeFetchTests times things with Duration and ContinuousClock,
    # and Swift Testing refuses @available on suites: on a Mac, its tests need macOS 13.)
    for directory in ["Sources/ImageProbeFoundation", "Sources/ImageProbeFetch", "Sources/ImageProbeCLI"]:
        findings = scan_target(directory, index, declared)
        unguarded = [f for f in findings if not f[4]]
        print("%-30s %d uses above a floor, %d without @available" % (directory, len(findings), len(unguarded)))
        for where, api, platform, version, guarded in findings:
            if listing or not guarded:
                print("  %s %s: %s needs %s %s" % ("ok  " if guarded else "FAIL", where, api, platform, version))
        failed = failed or bool(unguarded)
    if failed:
        print("availability: FAILED")
        sys.exit(1)
    print("availability: ok")


if __name__ == "__main__":
    main()
