#!/usr/bin/env python3
"""Every failure reason is reached by a test, or says why it can't be.

    python3 Scripts/failure-reachability.py EXPORT_DIR [CHECK_OUTPUT...]

EXPORT_DIR is what `IMAGEPROBE_REPLAY_EXPORT=EXPORT_DIR swift test` wrote: every input the
tests verified, with this build's outcome line (`cases.tsv`), whose failures and partial
reasons carry their messages. CHECK_OUTPUT files (`imageprobe-bench check` output) may add
more outcomes. Each reason declared in a parser's `Failure` enum or in `CommonFailure` must
have its message in some outcome, or be marked defensive where it is declared:

    case internalRunningParserMissing  // defensive: the slot always holds the running parser

(a `// defensive:` comment on the case line, or a `/// Defensive:` line right above it), which
says why no input reaches it. Exits 1 and lists the reasons that are neither.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from failures import declared  # noqa: E402


def seen(export, extra):
    text = ""
    cases = Path(export) / "cases.tsv"
    if cases.exists():
        text += cases.read_text(encoding="utf-8", errors="replace")
    for path in extra:
        text += Path(path).read_text(encoding="utf-8", errors="replace")
    return set(re.findall(r'"([^"\n]*)"', text))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    reasons = declared()
    messages = seen(sys.argv[1], sys.argv[2:])
    missing = [(owner, name, message) for owner, name, message, defensive in reasons
               if not defensive and message not in messages]
    reached = sum(1 for _, _, message, _ in reasons if message in messages)
    defensive = sum(1 for *_, flag in reasons if flag)
    print(f"{len(reasons)} failure reasons: {reached} reached by a test input, {defensive} marked defensive, "
          f"{len(missing)} neither")
    for owner, name, message in missing:
        print(f"  {owner}.{name}: \"{message}\"")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
