"""What the encoder ground-truth harnesses in this folder share (formats.py, animations.py).

Both write sample files with real encoders, record what each file holds in OUTDIR/manifest.jsonl,
and score a prober against that manifest. This module holds the parts they have in common:

- installing the encoders and oracles they use (`install`: apt-get, then pip);
- running an encoder or an oracle (`run`, `execute`, `tool`), never raising;
- the manifest: one JSON object per line (`write_manifest`, `read_manifest`);
- running the prober over the manifest's files in batches (`probe`), and the report's
  per-group tallies (`Tally`, `median_max`).

It is a module, not a script: `python3 Tests/encoders/formats.py` and
`python3 Tests/encoders/animations.py` import it from beside them.
"""

import json
import os
import shutil
import subprocess
import sys

# ----------------------------------------------------------------------------------------------
# Logging and running commands


def log(msg):
    """Progress goes to standard error, so the report on standard output stays clean."""
    print(msg, file=sys.stderr, flush=True)


def execute(cmd, *, timeout=180, input=None, cwd=None, env=None, nice=False):
    """Runs cmd (at low priority with nice=True, where nice(1) exists); never raises.

    Returns (returncode, stdout bytes, stderr text, error): error is the exception that kept the
    command from running to its end (not found, timed out, ...), with returncode None, or None.
    """
    argv = ["nice", "-n", "10", *cmd] if nice and shutil.which("nice") else list(cmd)
    try:
        p = subprocess.run(argv, input=input, capture_output=True, timeout=timeout, cwd=cwd, env=env)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"), None
    except Exception as e:  # noqa: BLE001 - the run must go on
        return None, b"", "", e


def shell_codes(error, timeout):
    """(returncode, reason) for a command that could not run to its end, as a shell reports it: 127
    when it is not found, 124 when it timed out (as timeout(1)), 1 otherwise."""
    if isinstance(error, FileNotFoundError):
        return 127, str(error)
    if isinstance(error, subprocess.TimeoutExpired):
        return 124, "timeout after %ss" % timeout
    return 1, repr(error)


def run(cmd, *, timeout=180, input=None, cwd=None, env=None, nice=False):
    """Runs cmd; never raises. Returns (returncode, stdout bytes, stderr text); a command that could
    not run to its end gets shell_codes' returncode, and its reason as the stderr."""
    rc, out, err, error = execute(cmd, timeout=timeout, input=input, cwd=cwd, env=env, nice=nice)
    if error is not None:
        rc, err = shell_codes(error, timeout)
    return rc, out, err


def which(name):
    return shutil.which(name)


def find_tool(name):
    """The program to run for name, or None. For `convert`, ImageMagick's own: /usr/local/bin/convert
    may be a stand-in that only renders PNGs."""
    if name == "convert":
        for cand in ("/usr/bin/convert", "/usr/bin/convert-im6.q16", shutil.which("magick"), shutil.which("convert")):
            if cand and os.path.exists(cand):
                rc, out, _ = run([cand, "-version"], timeout=20)
                if rc == 0 and "ImageMagick" in out.decode("utf-8", "replace"):
                    return cand
        return None
    return shutil.which(name)


TOOLS = {}


def tool(name):
    """find_tool, looked up once per name."""
    if name not in TOOLS:
        TOOLS[name] = find_tool(name)
    return TOOLS[name]


# ----------------------------------------------------------------------------------------------
# Installing the encoders and oracles


def install(apt_packages, pip_packages):
    """Installs the given Debian packages that are missing (apt-get, as root or through sudo), then
    the PyPI packages (pip, with --break-system-packages where Debian's Python asks for it).
    Prints one line of result; returns 0, or 1 after printing why it failed."""
    missing = [p for p in apt_packages if run(["dpkg", "-s", p])[0] != 0]
    if missing:
        prefix = [] if os.geteuid() == 0 else ["sudo"]
        rc, out, err = run(prefix + ["apt-get", "update", "-qq"], timeout=900)
        if rc == 0:
            rc, out, err = run(prefix + ["apt-get", "install", "-y", "-qq"] + missing, timeout=1800)
        if rc != 0:
            print("apt-get install failed (%d): %s" % (rc, (err or out.decode("utf-8", "replace")).strip()[-500:]))
            return 1
    rc, out, err = run([sys.executable, "-m", "pip", "install", "-q"] + pip_packages, timeout=1800)
    if rc != 0:
        # Debian's Python refuses system-wide pip installs unless told otherwise.
        rc, out, err = run([sys.executable, "-m", "pip", "install", "-q", "--break-system-packages"] + pip_packages,
                           timeout=1800)
    if rc != 0:
        print("pip install failed (%d): %s" % (rc, (err or out.decode("utf-8", "replace")).strip()[-500:]))
        return 1
    print("installed: %s (apt), %s (pip)" % (" ".join(apt_packages), " ".join(pip_packages)))
    return 0


# ----------------------------------------------------------------------------------------------
# The manifest: one JSON object per generated file, in OUTDIR/manifest.jsonl


def manifest_path(outdir):
    return os.path.join(str(outdir), "manifest.jsonl")


def write_manifest(outdir, records):
    with open(manifest_path(outdir), "w") as f:
        for rec in records:
            f.write(json.dumps(rec, sort_keys=False) + "\n")


def read_manifest(outdir):
    """The manifest's records, in file order. Raises OSError when there is none."""
    with open(manifest_path(outdir)) as f:
        return [json.loads(line) for line in f if line.strip()]


# ----------------------------------------------------------------------------------------------
# Running the prober, and the report


def probe(cmd, args, files, batch=100, timeout=600):
    """Runs `CMD [ARG...] ARGS FILE...` over files, batch files at a time (`imageprobe --json` prints
    one JSON object per input). Yields, per batch: (files, returncode, stdout text, stderr text,
    error, answers, unparsable). error is the exception that kept the command from running (see
    execute; returncode and stderr are then shell_codes'), answers the (position among the non-blank output lines, object) of each line that is
    a JSON object, and unparsable the lines that start with "{" but are not JSON."""
    for i in range(0, len(files), batch):
        chunk = files[i:i + batch]
        rc, out, err, error = execute([*cmd, *args, *chunk], timeout=timeout)
        if error is not None:
            rc, err = shell_codes(error, timeout)
        text = out.decode("utf-8", "replace")
        answers, unparsable = [], []
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        for j, line in enumerate(lines):
            try:
                obj = json.loads(line)
            except ValueError:
                if line.startswith("{"):
                    unparsable.append(line)
                continue
            if isinstance(obj, dict):
                answers.append((j, obj))
        yield chunk, rc, text, err, error, answers, unparsable


def median_max(values):
    """(median truncated to an integer, maximum) of a list of numbers; (0, 0) when it is empty."""
    if not values:
        return 0, 0
    ordered = sorted(values)
    n = len(ordered)
    median = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    return int(median), max(ordered)


class Tally:
    """Per group (a format, or a format and an encoder): files, answered, right, and the bytes read
    and skipped of each answer; and the failures, in the order they were found."""

    def __init__(self):
        self.groups = {}
        self.failures = []

    def group(self, key):
        return self.groups.setdefault(key, {"files": 0, "answered": 0, "right": 0, "read": [], "skipped": []})

    def count(self, key, answered, failure=None, read=None, skipped=None):
        """Counts one file of group key: whether the prober answered for it, what was wrong with the
        answer (None: it was right), and the bytes it read and skipped (None: not reported)."""
        s = self.group(key)
        s["files"] += 1
        if answered:
            s["answered"] += 1
        if read is not None:
            s["read"].append(read)
        if skipped is not None:
            s["skipped"].append(skipped)
        if failure is None:
            s["right"] += 1
        else:
            self.failures.append(failure)
        return failure is None
