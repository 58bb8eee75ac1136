#!/usr/bin/env python3
"""Type-checks, on Linux, the package's code as Apple platforms compile it.

    python3 Scripts/darwin-check.py [--targets A,B] [--verbose]
    python3 Scripts/darwin-check.py --self-test

Every `#if canImport(Darwin)` / `canImport(Security)` / `!canImport(Glibc)` / `os(macOS)`...
branch is otherwise compiled by nobody but a Mac. This check compiles them here:

1. The Swift sources of the checked targets (CHECKED below) and of their dependencies, read
   from Package.swift (`swift package dump-package`), are copied to .build/darwin-check/src.
2. In the copies, the conditions of `#if` / `#elseif` lines are rewritten to evaluate as on
   macOS: canImport(Darwin), canImport(Security), os(macOS) become `true`; canImport(Glibc),
   canImport(FoundationNetworking), os(Linux)... become `false`. Each `import Foundation` gets
   `; import AppleFoundation` on the same line. Line numbers don't change, so every
   diagnostic names the real file and line.
3. Stub modules stand in for what Linux lacks (Scripts/darwin-stubs, each declaration with the
   Apple declaration it mirrors): Darwin (the toolchain's own Glibc overlay interface plus
   Darwin's differing declarations: SOCK_STREAM as Int32, statfs, posix_spawn's pointer
   types), a Glibc module that forwards to it (so that Linux's Foundation, which re-exports
   Glibc, brings Darwin's declarations, which then shadow Glibc's), AppleCoreFoundation and
   Security (the CF and Security APIs used), AppleFoundation (Foundation as `import
   Foundation` is on Apple: URLSession included, plus the Apple-only members the code uses).
4. Each target is compiled with `swiftc -emit-module -wmo -swift-version 6` against those
   stubs, in dependency order: -emit-module rather than -typecheck, because the Swift 6
   data-race errors (region isolation) and definite-initialization errors come from the SIL
   passes that -typecheck skips. Dependencies that are not checked themselves (the core,
   the fixtures) are built the same way with their function bodies skipped. C targets are
   imported through module maps, as SwiftPM does; Linux-only targets (CCurl) are left out,
   as on Apple platforms.
5. The libc audit: the Darwin stub still takes most of the C library from Glibc's headers,
   which would let a Glibc-only function through. The compiler's AST dump of each file that
   imports Foundation, Darwin or a C target lists every C-library symbol it uses; one that is
   neither declared by the stubs nor listed, reviewed for Darwin, in
   Scripts/darwin-stubs/libc-reviewed.txt is an error (--no-libc-audit skips this).
6. Prints, per target, the files and the Darwin-only branches compiled, and every error with
   its repository path and line; exits 1 on any error (2 when the check itself can't run).
   The check first asserts its premise, that the stubs shadow Glibc: `Int32(SOCK_STREAM
   .rawValue)` must not compile in Darwin mode.

--self-test copies the sources to .build/darwin-check/self-test, plants lines in Darwin-only
branches (`let planted: Int = "not an Int"` in FileProbe.swift's isPseudoFilesystem and in
URLSessionTransport.swift's `canImport(Security)` trust evaluation, and a libc call that is
not reviewed), checks that copy and asserts that the check fails naming exactly those lines.

Not checked (see Scripts/darwin-stubs/README.md): availability (the target is still Linux:
`@available` and `#available` are not enforced; Scripts/availability.py covers the standard
library), Objective-C (no Objective-C runtime on Linux: `canImport(ObjectiveC)` branches are
reported and skipped), and whatever the stubs don't model (integer typedef widths are
Glibc's; Foundation is swift-corelibs-foundation plus the listed Apple members).

Python 3 standard library and the Swift toolchain only.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUBS = ROOT / "Scripts" / "darwin-stubs"

# The targets whose code is checked as Apple compiles it. Their Swift dependencies are built
# too (checked as well when listed here). ImageProbeTests: the core's tests, with no platform
# conditions, cheap enough to check that their Foundation uses compile on Apple too.
CHECKED = [
    "ImageProbeFoundation",
    "ImageProbeFetch",
    "ImageProbeCLI",
    "ImageProbeFuzz",
    "imageprobe-bench",
    "ImageProbeFoundationTests",
    "ImageProbeTestSupport",
    "ImageProbeFetchTests",
    "ImageProbeCLITests",
    "ImageProbeTests",
]
SELF_TEST_TARGETS = ["ImageProbeFoundation", "ImageProbeFetch", "ImageProbeCLI"]
PACKAGE_NAME = "imageprobe"  # -package-name, the same for every module of the check

# --- Platform conditions -------------------------------------------------------------------
# canImport(X) as on macOS. Modules not listed either way (the package's own targets, say) are
# left to the compiler, which sees the package's modules and the stubs.
DARWIN_MODULES = {
    "Darwin", "Security", "Foundation", "Dispatch", "CoreFoundation", "CFNetwork", "Network",
    "os", "OSLog", "Combine", "AppKit", "CryptoKit", "SystemConfiguration", "System", "MachO",
    "Testing", "XCTest", "Synchronization", "RegexBuilder", "Observation", "Distributed",
    "_Concurrency", "_StringProcessing", "UniformTypeIdentifiers", "ImageIO", "CoreGraphics",
}
NOT_DARWIN_MODULES = {
    "Glibc", "SwiftGlibc", "Musl", "Bionic", "Android", "WASILibc", "WinSDK", "ucrt", "CRT",
    "FoundationNetworking", "FoundationXML", "FoundationEssentials",
    "FoundationInternationalization", "UIKit", "WatchKit",
}
# Present on Apple platforms, but only usable with the Objective-C runtime, which Linux lacks:
# such branches are rewritten to false (their #else is compiled instead) and reported.
OBJC_MODULES = {"ObjectiveC"}
# canImport(X) on this Linux machine, for telling which branches are Darwin-only.
LINUX_MODULES = {
    "Glibc", "SwiftGlibc", "Foundation", "FoundationNetworking", "FoundationXML",
    "FoundationEssentials", "FoundationInternationalization", "Dispatch", "Testing", "XCTest",
    "Synchronization", "RegexBuilder", "Observation", "Distributed", "_Concurrency",
    "_StringProcessing", "CoreFoundation",
}
DARWIN_OS = {"macOS"}
KNOWN_OS = {"macOS", "iOS", "tvOS", "watchOS", "visionOS", "xrOS", "Linux", "Windows", "Android",
            "FreeBSD", "OpenBSD", "WASI", "Cygwin", "Haiku", "PS4", "none"}
# Modules an Apple build can't import at all: an active `import` of one is an error there.
LINUX_ONLY_IMPORTS = {"Glibc", "SwiftGlibc", "Musl", "Bionic", "Android", "WASILibc",
                      "FoundationNetworking", "FoundationXML"}

DIRECTIVE = re.compile(r"^(\s*)#(if|elseif|else|endif)\b(.*)$")
ATOM = re.compile(r"\b(canImport|os|targetEnvironment|_runtime)\s*\(\s*([A-Za-z_][\w.]*)\s*(?:,[^()]*)?\)")
FOUNDATION_IMPORT = re.compile(
    r"^(\s*)((?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?)"
    r"import\s+Foundation\s*;?\s*(//.*)?$")
ANY_IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                        r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)")


class CheckError(Exception):
    """The check itself can't run (exit status 2)."""


def platform_value(kind, name, platform, extra_linux_only):
    """The value of a platform atom on 'darwin' or 'linux', or None when left to the compiler.
    Returns 'objc' for the Objective-C atoms on Darwin."""
    if kind == "canImport":
        name = name.split(".")[0]
        if platform == "darwin":
            if name in OBJC_MODULES:
                return "objc"
            if name in NOT_DARWIN_MODULES or name in extra_linux_only:
                return False
            if name in DARWIN_MODULES:
                return True
            return None
        if name in LINUX_MODULES or name in extra_linux_only:
            return True
        if name in DARWIN_MODULES or name in NOT_DARWIN_MODULES or name in OBJC_MODULES:
            return False
        return None
    if kind == "os":
        if name not in KNOWN_OS:
            return None
        return name in DARWIN_OS if platform == "darwin" else name == "Linux"
    if kind == "targetEnvironment":
        return False
    if kind == "_runtime":
        if platform == "darwin":
            return "objc" if name == "_ObjC" else False
        return name == "_Native"
    return None


class Condition:
    """A tiny evaluator for #if conditions: ! && || ( ) true false, flags and predicates."""

    TOKEN = re.compile(r"\s*(&&|\|\||!|\(|\)|[A-Za-z_][\w.]*\s*\((?:[^()]|\([^()]*\))*\)|[A-Za-z_]\w*)")

    def __init__(self, text, atom_value):
        self.tokens = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            match = self.TOKEN.match(text, pos)
            if not match:
                raise ValueError(text)
            self.tokens.append(match.group(1).strip())
            pos = match.end()
        self.atom_value = atom_value
        self.index = 0

    def evaluate(self):
        value = self.disjunction()
        if self.index != len(self.tokens):
            raise ValueError(" ".join(self.tokens))
        return value

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def disjunction(self):
        value = self.conjunction()
        while self.peek() == "||":
            self.index += 1
            right = self.conjunction()
            value = value or right
        return value

    def conjunction(self):
        value = self.unary()
        while self.peek() == "&&":
            self.index += 1
            right = self.unary()
            value = value and right
        return value

    def unary(self):
        token = self.peek()
        if token == "!":
            self.index += 1
            return not self.unary()
        if token == "(":
            self.index += 1
            value = self.disjunction()
            if self.peek() != ")":
                raise ValueError(" ".join(self.tokens))
            self.index += 1
            return value
        if token is None:
            raise ValueError(" ".join(self.tokens))
        self.index += 1
        return self.atom_value(token)


def strip_comment(text):
    index = text.find("//")
    return (text, "") if index < 0 else (text[:index], text[index:])


class SourceFile:
    """One Swift file: its lines, which of them are code (not in a comment or a multi-line
    string), and its #if structure under both platforms."""

    def __init__(self, rel, text, toolchain, package_targets, linux_only):
        self.rel = rel
        self.lines = text.split("\n")
        self.toolchain = toolchain
        self.package_targets = package_targets
        self.linux_only = linux_only
        self.code_line = self.scan_code_lines()
        self.darwin_only = []   # (first, last) 1-based line ranges: active on Darwin only
        self.objc_skipped = []  # lines of conditions that need the Objective-C runtime
        self.darwin_active = [True] * len(self.lines)
        self.errors = []        # (line, message): found while rewriting
        self.imports = set()    # modules imported by the code Apple compiles
        self.analyze()

    def scan_code_lines(self):
        """Whether each line starts outside comments and multi-line string literals."""
        result = []
        depth = 0          # /* */ nesting
        in_string = None   # the closing delimiter of the multi-line string we're in
        for line in self.lines:
            result.append(depth == 0 and in_string is None)
            i = 0
            n = len(line)
            while i < n:
                if in_string is not None:
                    end = line.find(in_string, i)
                    if end < 0:
                        break
                    i = end + len(in_string)
                    in_string = None
                    continue
                if depth > 0:
                    if line.startswith("/*", i):
                        depth += 1
                        i += 2
                    elif line.startswith("*/", i):
                        depth -= 1
                        i += 2
                    else:
                        i += 1
                    continue
                if line.startswith("//", i):
                    break
                if line.startswith("/*", i):
                    depth += 1
                    i += 2
                    continue
                match = re.compile(r'(#*)"""').match(line, i)
                if match:
                    in_string = '"""' + match.group(1)
                    i = match.end()
                    continue
                match = re.compile(r'(#*)"').match(line, i)
                if match:
                    hashes = match.group(1)
                    i = match.end()
                    while i < n:  # a one-line string literal
                        if line[i] == "\\" and not hashes:
                            i += 2
                            continue
                        if line.startswith('"' + hashes, i):
                            i += 1 + len(hashes)
                            break
                        i += 1
                    continue
                i += 1
        return result

    def atom_value(self, platform, token):
        if token == "true":
            return True
        if token == "false":
            return False
        match = re.match(r"([A-Za-z_]\w*)\s*\((.*)\)$", token, re.S)
        if not match:
            return token in ("DEBUG", "SWIFT_PACKAGE")
        kind, argument = match.group(1), match.group(2).strip()
        if kind in ("canImport", "os", "targetEnvironment", "_runtime"):
            name = argument.split(",")[0].strip()
            value = platform_value(kind, name, platform, self.linux_only)
            if value == "objc":
                return False
            if value is None:
                return kind == "canImport" and name.split(".")[0] in self.package_targets
            return value
        if kind in ("compiler", "swift"):
            version = re.match(r"([<>]=?)\s*([\d.]+)", argument)
            if not version:
                return False
            have = self.toolchain["version"]
            want = tuple(int(part) for part in version.group(2).split("."))
            have = have + (0,) * (len(want) - len(have))
            return have >= want if version.group(1) == ">=" else have < want
        if kind == "hasFeature":
            return False
        if kind == "hasAttribute":
            return True
        if kind == "arch":
            return argument == self.toolchain["arch"]
        if kind == "_endian":
            return argument == "little"
        if kind == "_pointerBitWidth":
            return argument == "_64"
        return False

    def evaluate(self, platform, condition):
        text, _ = strip_comment(condition)
        try:
            return Condition(text, lambda token: self.atom_value(platform, token)).evaluate()
        except ValueError:
            return None

    def analyze(self):
        # Each open #if: [darwin parent active, linux parent active, darwin taken, linux taken,
        # darwin branch active, linux branch active, branch start line]
        stack = []
        darwin = linux = True
        for number, line in enumerate(self.lines, 1):
            if not self.code_line[number - 1]:
                self.darwin_active[number - 1] = darwin
                continue
            match = DIRECTIVE.match(line)
            if not match:
                self.darwin_active[number - 1] = darwin
                continue
            keyword, condition = match.group(2), match.group(3)
            if keyword in ("if", "elseif"):
                for atom in ATOM.finditer(strip_comment(condition)[0]):
                    if platform_value(atom.group(1), atom.group(2), "darwin", self.linux_only) == "objc":
                        self.objc_skipped.append(number)
            if keyword == "if":
                stack.append([darwin, linux, False, False, False, False, number])
            elif not stack:
                self.errors.append((number, f"#{keyword} without #if"))
                continue
            frame = stack[-1]
            # A Darwin-only branch: compiled on Darwin, not on Linux, where its enclosing
            # code is (a nested branch of a Darwin-only branch isn't counted again).
            if keyword in ("elseif", "else", "endif") and frame[4] and not frame[5] and frame[1]:
                self.darwin_only.append((frame[6], number))
            if keyword == "endif":
                stack.pop()
                darwin, linux = frame[0], frame[1]
                self.darwin_active[number - 1] = darwin
                continue
            if keyword == "else":
                d_value, l_value = True, True
            else:
                d_value = self.evaluate("darwin", condition)
                l_value = self.evaluate("linux", condition)
                if d_value is None or l_value is None:
                    self.errors.append((number, f"darwin-check can't evaluate this condition: {condition.strip()}"))
                    d_value = l_value = False
            d_branch = frame[0] and not frame[2] and d_value
            l_branch = frame[1] and not frame[3] and l_value
            frame[2] = frame[2] or d_branch
            frame[3] = frame[3] or l_branch
            frame[4], frame[5], frame[6] = d_branch, l_branch, number
            darwin, linux = d_branch, l_branch
            self.darwin_active[number - 1] = frame[0]
        if stack:
            self.errors.append((stack[-1][6], "#if without #endif"))

    def in_darwin_only(self, line):
        return any(first < line < last for first, last in self.darwin_only)

    def rewritten(self):
        """The text as Apple compiles it, line for line."""
        out = []
        for number, line in enumerate(self.lines, 1):
            if self.code_line[number - 1]:
                match = DIRECTIVE.match(line)
                if match and match.group(2) in ("if", "elseif"):
                    condition, comment = strip_comment(match.group(3))

                    def substitute(atom):
                        value = platform_value(atom.group(1), atom.group(2), "darwin", self.linux_only)
                        if value is None:
                            return atom.group(0)
                        return "true" if value is True else "false"

                    line = match.group(1) + "#" + match.group(2) + ATOM.sub(substitute, condition) + comment
                elif self.darwin_active[number - 1]:
                    imported = FOUNDATION_IMPORT.match(line)
                    if imported:
                        self.imports.add("Foundation")
                        indent, prefix, comment = imported.group(1), imported.group(2), imported.group(3)
                        line = f"{indent}{prefix}import Foundation; {prefix}import AppleFoundation"
                        if comment:
                            line += " " + comment
                    else:
                        other = ANY_IMPORT.match(line)
                        if other:
                            self.imports.add(other.group(1))
                        if other and (other.group(1) in LINUX_ONLY_IMPORTS or other.group(1) in self.linux_only):
                            self.errors.append((number, f"no such module '{other.group(1)}' on Apple platforms "
                                                        "(darwin-check: an unconditional import of a Linux-only module)"))
            out.append(line)
        return "\n".join(out)


# --- Toolchain and package ---------------------------------------------------------------

def run(command, cwd=None, verbose=False):
    if verbose:
        print("  $ " + " ".join(str(part) for part in command), flush=True)
    process = subprocess.run([str(part) for part in command], cwd=cwd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors="replace")
    return process.returncode, process.stdout


def find_swiftc():
    for candidate in (os.environ.get("SWIFTC"), shutil.which("swiftc"), "/opt/swift/usr/bin/swiftc"):
        if candidate and Path(candidate).exists():
            return Path(candidate)
    raise CheckError("swiftc not found (PATH, $SWIFTC or /opt/swift/usr/bin)")


def toolchain_info(swiftc):
    status, output = run([swiftc, "-print-target-info"])
    if status != 0:
        raise CheckError("swiftc -print-target-info failed:\n" + output)
    info = json.loads(output)
    target = info["target"]
    resource = Path(info["paths"]["runtimeResourcePath"])
    glibc = resource / "linux" / "Glibc.swiftmodule" / (target["moduleTriple"] + ".swiftinterface")
    if not glibc.exists():
        raise CheckError(f"the toolchain's Glibc interface is missing: {glibc}")
    _, version_text = run([swiftc, "--version"])
    version = re.search(r"Swift version (\d+(?:\.\d+)*)", version_text)
    return {
        "swiftc": swiftc,
        "triple": target["triple"],
        "arch": target["arch"] if "arch" in target else target["triple"].split("-")[0],
        "glibc_interface": glibc,
        "version": tuple(int(part) for part in version.group(1).split(".")) if version else (6, 0),
        "version_text": version.group(0) if version else version_text.strip().splitlines()[0],
    }


class Target:
    def __init__(self, entry, source_root):
        self.name = entry["name"]
        self.kind = entry["type"]
        default = "Tests" if self.kind == "test" else "Sources"
        self.path = entry.get("path") or f"{default}/{self.name}"
        self.directory = source_root / self.path
        self.module = re.sub(r"[^A-Za-z0-9_]", "_", self.name)
        self.dependencies = []   # (name, platform names or None)
        for dependency in entry.get("dependencies", []):
            for key in ("byName", "target", "product"):
                if key in dependency:
                    name, condition = dependency[key][0], dependency[key][-1]
                    platforms = condition.get("platformNames") if isinstance(condition, dict) else None
                    self.dependencies.append((name, platforms))
        excluded = [self.directory / part for part in entry.get("exclude", [])]
        self.swift_files = sorted(
            path for path in self.directory.rglob("*.swift")
            if not any(path == part or part in path.parents for part in excluded)
        ) if self.directory.is_dir() else []

    @property
    def is_swift(self):
        return self.kind in ("regular", "executable", "test") and bool(self.swift_files)

    @property
    def is_c(self):
        return self.kind == "regular" and not self.swift_files and self.directory.is_dir()

    def darwin_dependencies(self):
        """Dependencies on Apple platforms: those not conditioned to other platforms only."""
        apple = {"macos", "ios", "tvos", "watchos", "visionos", "maccatalyst", "driverkit"}
        return [name for name, platforms in self.dependencies
                if platforms is None or any(platform in apple for platform in platforms)]


def load_package(swiftc, source_root, scratch, verbose):
    swift = swiftc.parent / "swift"
    if not swift.exists():
        swift = Path(shutil.which("swift") or "swift")
    status, output = run([swift, "package", "--package-path", source_root,
                          "--scratch-path", scratch / "spm", "dump-package"], verbose=verbose)
    if status != 0:
        raise CheckError("swift package dump-package failed:\n" + output)
    start = output.find("{")
    package = json.loads(output[start:])
    targets = {entry["name"]: Target(entry, source_root) for entry in package["targets"]}
    # Targets that only some non-Apple platforms depend on (CCurl, CCurlShim): not importable on
    # Apple platforms.
    linux_only = set()
    for target in targets.values():
        for name, platforms in target.dependencies:
            if platforms and name in targets and name not in target.darwin_dependencies():
                linux_only.add(name)
    for target in targets.values():
        for name, platforms in target.dependencies:
            if platforms is None or name in target.darwin_dependencies():
                linux_only.discard(name)
    return targets, linux_only


def closure(targets, names):
    """The named targets and their Apple-platform dependencies, dependencies first."""
    order, seen = [], set()

    def visit(name, path):
        if name in seen:
            return
        if name in path:
            raise CheckError("dependency cycle: " + " -> ".join(path + [name]))
        if name not in targets:
            raise CheckError(f"no target {name} in Package.swift")
        for dependency in targets[name].darwin_dependencies():
            visit(dependency, path + [name])
        seen.add(name)
        order.append(name)

    for name in names:
        visit(name, [])
    return order


# --- Stub modules ----------------------------------------------------------------------------

def darwin_interface(toolchain):
    """The Darwin stub's interface: the toolchain's Glibc overlay interface, renamed, which
    re-exports SwiftGlibc (Glibc's C headers) and DarwinC, then
    Scripts/darwin-stubs/Darwin.swiftinterface. Returns the text and the line after which the
    stub file starts."""
    header, imports, body = [], [], []
    for line in toolchain["glibc_interface"].read_text().splitlines(True):
        if not body and line.startswith("// swift-module-flags:"):
            line = line.replace("-module-name Glibc", "-module-name Darwin")
            line = line.replace("-module-link-name swiftGlibc", "-module-link-name swiftDarwinCheckStub")
            header.append(line)
        elif not body and not imports and line.startswith("//"):
            header.append(line)
        elif not body and re.match(r"^(@_exported\s+)?import\s", line):
            imports.append(line)
        elif body or line.strip():
            body.append(line)
    if not any("-module-name Darwin" in line for line in header):
        raise CheckError(f"unexpected header in {toolchain['glibc_interface']}: no -module-name Glibc")
    for module in ("SwiftGlibc", "DarwinC"):
        if f"@_exported import {module}\n" not in imports:
            imports.append(f"@_exported import {module}\n")
    # The overlay's own names, qualified with its module (Glibc.POSIXErrorCode), now Darwin's.
    text = "".join(header + imports) + re.sub(r"(?<![\w])Glibc\.", "Darwin.", "".join(body))
    if not text.endswith("\n"):
        text += "\n"
    text += "// ---- Scripts/darwin-stubs/Darwin.swiftinterface\n"
    offset = text.count("\n")
    return text + (STUBS / "Darwin.swiftinterface").read_text(), offset


class Diagnostics:
    """Compiler output, parsed, with paths mapped back to the repository."""
    LINE = re.compile(r"^(.*?):(\d+):(\d+): (error|warning): (.*)$")

    def __init__(self, path_map):
        self.path_map = path_map  # [(prefix, function(path, line) -> (shown path, line))]

    def parse(self, output):
        found, seen = [], set()
        for line in output.splitlines():
            match = self.LINE.match(line)
            if match:
                path, number, column, severity, message = match.groups()
                shown, number = self.map(path, int(number))
                key = (shown, number, int(column), severity, message)
                if key not in seen:
                    seen.add(key)
                    found.append({"path": shown, "line": number, "column": int(column),
                                  "severity": severity, "message": message})
            elif re.match(r"^(<unknown>:0: )?error: ", line) and "command failed with exit code" not in line:
                key = ("", 0, 0, "error", line)
                if key not in seen:
                    seen.add(key)
                    found.append({"path": "", "line": 0, "column": 0, "severity": "error", "message": line})
        return found

    def map(self, path, number):
        resolved = os.path.abspath(path)
        for prefix, mapping in self.path_map:
            if resolved.startswith(prefix):
                return mapping(resolved, number)
        return path, number


def build_stubs(toolchain, scratch, verbose):
    sdk = scratch / "sdk"
    cache = scratch / "module-cache"
    if sdk.exists():
        shutil.rmtree(sdk)
    sdk.mkdir(parents=True)
    cache.mkdir(parents=True, exist_ok=True)
    text, offset = darwin_interface(toolchain)
    generated = sdk / "Darwin.swiftinterface"
    generated.write_text(text)
    darwin_stub = str(STUBS / "Darwin.swiftinterface")

    def map_generated(path, number):
        if number > offset:
            return os.path.relpath(darwin_stub, ROOT), number - offset
        return f"{path} (the toolchain's Glibc overlay, copied)", number

    diagnostics = Diagnostics([(str(generated), map_generated),
                               (str(STUBS) + os.sep, lambda path, n: (os.path.relpath(path, ROOT), n))])
    for module in ("Darwin", "Glibc", "AppleCoreFoundation", "Security", "AppleFoundation"):
        interface = generated if module == "Darwin" else STUBS / f"{module}.swiftinterface"
        status, output = run([toolchain["swiftc"], "-frontend", "-compile-module-from-interface", interface,
                              "-module-name", module, "-o", sdk / f"{module}.swiftmodule",
                              "-target", toolchain["triple"], "-I", sdk, "-I", STUBS / "DarwinC",
                              "-module-cache-path", cache, "-diagnostic-style=llvm"], verbose=verbose)
        if status != 0:
            lines = [f"  {d['path']}:{d['line']}: {d['severity']}: {d['message']}" for d in diagnostics.parse(output)]
            raise CheckError(f"the {module} stub doesn't build:\n" + ("\n".join(lines) or output))
    # The generated interface is not needed once compiled; leaving it next to the module would
    # let the compiler prefer rebuilding from it.
    generated.rename(scratch / "Darwin.generated.swiftinterface")
    return sdk, cache


def common_flags(toolchain, sdk, cache, modules):
    return ["-swift-version", "6", "-package-name", PACKAGE_NAME, "-Onone", "-enable-testing",
            "-D", "SWIFT_PACKAGE", "-D", "DEBUG", "-target", toolchain["triple"],
            "-I", sdk, "-I", modules, "-I", STUBS / "DarwinC", "-module-cache-path", cache,
            "-no-color-diagnostics", "-diagnostic-style=llvm"]


def shadowing_probe(toolchain, sdk, cache, scratch, verbose):
    """The stubs' premise: in Darwin mode, Darwin's declarations shadow Glibc's even in a file
    that only imports Foundation. Returns an error message, or None."""
    probe = scratch / "probe"
    probe.mkdir(parents=True, exist_ok=True)
    good = probe / "Good.swift"
    good.write_text("import Foundation; import AppleFoundation\nlet kind: Int32 = SOCK_STREAM\n")
    bad = probe / "Bad.swift"
    bad.write_text("import Foundation; import AppleFoundation\nlet kind = Int32(SOCK_STREAM.rawValue)\n")
    flags = common_flags(toolchain, sdk, cache, probe)
    status, output = run([toolchain["swiftc"], "-typecheck", *flags, good], verbose=verbose)
    if status != 0:
        return "Darwin mode can't compile `let kind: Int32 = SOCK_STREAM`:\n" + output
    status, output = run([toolchain["swiftc"], "-typecheck", *flags, bad], verbose=verbose)
    if status == 0 or "rawValue" not in output:
        return ("Darwin mode compiles Glibc's `Int32(SOCK_STREAM.rawValue)`: the Darwin stub no longer "
                "shadows Glibc's declarations (is the stub directory still first in the search path?)")
    return None


# --- The libc audit -------------------------------------------------------------------------
# The Darwin stub re-exports Glibc's C headers (SwiftGlibc) and a copy of the toolchain's Glibc
# overlay: whatever Darwin-mode code uses from them compiles here whether or not Darwin has it.
# Each such symbol must be listed in Scripts/darwin-stubs/libc-reviewed.txt, reviewed against
# Apple's headers, or be declared in its Darwin form in the stubs.

LIBC_REFERENCE = re.compile(r'(?:decl|bind)="(SwiftGlibc|Darwin|Glibc)\.\(file\)\.([^"@ ]+)')
LOCATION = re.compile(r"(?:location=|range=\[)([^:\s]+\.swift):(\d+):\d+")


def reviewed_libc():
    names = {}
    path = STUBS / "libc-reviewed.txt"
    for line in path.read_text().splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            names[entry] = True
    return names


def stub_declared_names():
    """Top-level names declared by Scripts/darwin-stubs/Darwin.swiftinterface."""
    text = (STUBS / "Darwin.swiftinterface").read_text()
    return set(re.findall(r"^public\s+(?:var|let|func|typealias|struct|enum|class)\s+([A-Za-z_]\w*)", text, re.M))


def libc_audit(toolchain, command_flags, module, copies, primaries, parse_as_library, verbose):
    """Symbols from Glibc's headers or overlay that the Darwin-mode code of `primaries` uses:
    {symbol: (copied path, line)}. Runs the compiler's AST dump on those files only."""
    if not primaries:
        return {}
    command = [toolchain["swiftc"], "-dump-ast", "-###", "-module-name", module, *command_flags]
    if parse_as_library:
        command.append("-parse-as-library")
    command += copies
    status, output = run(command, verbose=verbose)
    jobs = [line for line in output.splitlines() if "-frontend" in line and "-dump-ast" in line]
    if status != 0 or not jobs:
        raise CheckError("can't get the compiler's -dump-ast command:\n" + output)
    # The first job's command, every file made a secondary, then the chosen ones primaries:
    # one frontend process for them all.
    job = shlex.split(jobs[0])
    frontend = []
    for index, part in enumerate(job):
        if part == "-primary-file" or (index and job[index - 1] == "-o") or part == "-o":
            continue
        frontend.append(part)
    wanted = {str(path) for path in primaries}
    final, outputs = [], []
    for part in frontend:
        if part in wanted or os.path.abspath(part) in wanted:
            final.append("-primary-file")
            outputs.append(Path(primaries[0]).parent / f".ast-{len(outputs)}.txt")
        final.append(part)
    for path in outputs:
        final += ["-o", path]
    status, output = run(final, verbose=verbose)
    for path in outputs:
        if path.exists():
            output += "\n" + path.read_text(errors="replace")
            path.unlink()
    found = {}
    stub_names = stub_declared_names()
    where = None
    for line in output.splitlines():
        location = LOCATION.search(line)
        if location:
            where = (os.path.abspath(location.group(1)), int(location.group(2)))
        for module_name, symbol in LIBC_REFERENCE.findall(line):
            symbol = re.sub(r"\(.*?\)", "", symbol)
            if module_name == "Darwin" and symbol.split(".")[0] in stub_names:
                continue
            if symbol not in found and where:
                found[symbol] = where
    return found


# --- The check -----------------------------------------------------------------------------

def c_module_flags(target, scratch):
    """-Xcc flags importing a C target as SwiftPM does: its include/module.modulemap, else a
    generated one over include/<Name>.h or the include directory."""
    include = target.directory / "include"
    if not include.is_dir():
        return []
    custom = include / "module.modulemap"
    if custom.exists():
        modulemap = custom
    else:
        generated = scratch / "c-modules" / target.module
        generated.mkdir(parents=True, exist_ok=True)
        umbrella = include / f"{target.name}.h"
        if umbrella.exists():
            body = f'module {target.module} {{\n    umbrella header "{umbrella}"\n    export *\n}}\n'
        else:
            body = f'module {target.module} {{\n    umbrella "{include}"\n    export *\n}}\n'
        modulemap = generated / "module.modulemap"
        modulemap.write_text(body)
    return ["-Xcc", f"-fmodule-map-file={modulemap}", "-Xcc", f"-I{include}"]


def check(source_root, scratch, names, toolchain, verbose=False, plant=None, audit=True):
    """Runs the check on the sources under `source_root`. Returns a report dict."""
    started = time.monotonic()
    targets, linux_only = load_package(toolchain["swiftc"], source_root, scratch, verbose)
    unknown = [name for name in names if name not in targets]
    if unknown:
        raise CheckError(f"no target {', '.join(unknown)} in Package.swift")
    order = closure(targets, names)
    sdk, cache = build_stubs(toolchain, scratch, verbose)
    problem = shadowing_probe(toolchain, sdk, cache, scratch, verbose)
    if problem:
        raise CheckError(problem)

    source_copy = scratch / "src"
    modules = scratch / "modules"
    for directory in (source_copy, modules, scratch / "c-modules"):
        if directory.exists():
            shutil.rmtree(directory)
        directory.mkdir(parents=True)
    copy_prefix = str(source_copy) + os.sep
    diagnostics = Diagnostics([
        (copy_prefix, lambda path, n: (os.path.relpath(path, source_copy), n)),
        (str(STUBS) + os.sep, lambda path, n: (os.path.relpath(path, ROOT), n)),
    ])
    package_targets = set(targets)
    results = []
    files_by_rel = {}
    planted = []
    c_flags = []
    failed = set()  # targets without a module
    reviewed = reviewed_libc()
    c_modules = {targets[name].module for name in order if targets[name].is_c}
    for name in order:
        target = targets[name]
        if target.is_c:
            c_flags += c_module_flags(target, scratch)
    for name in order:
        target = targets[name]
        if not target.is_swift:
            continue
        checked = name in names
        copies = []
        summary = {"target": name, "checked": checked, "files": len(target.swift_files), "libc": [],
                   "branches": 0, "branch_lines": 0, "objc": [], "errors": [], "warnings": [], "seconds": 0.0}
        for path in target.swift_files:
            rel = path.relative_to(source_root).as_posix()
            text = path.read_text(encoding="utf-8")
            if plant:
                text, lines = plant(rel, text, toolchain, package_targets, linux_only)
                planted += [(rel, line, content) for line, content in lines]
            source = SourceFile(rel, text, toolchain, package_targets, linux_only)
            output = source.rewritten()
            if output.count("\n") != text.count("\n"):
                raise CheckError(f"rewriting {rel} changed its line count")
            destination = source_copy / rel
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_text(output, encoding="utf-8")
            copies.append(destination)
            files_by_rel[rel] = source
            summary["branches"] += len(source.darwin_only)
            summary["branch_lines"] += sum(last - first - 1 for first, last in source.darwin_only)
            summary["objc"] += [f"{rel}:{line}" for line in source.objc_skipped]
            for line, message in source.errors:
                summary["errors"].append({"path": rel, "line": line, "column": 1, "severity": "error", "message": message})
        has_main = any(path.name == "main.swift" for path in target.swift_files)
        command = [toolchain["swiftc"], "-emit-module", "-wmo", "-module-name", target.module,
                   "-emit-module-path", modules / f"{target.module}.swiftmodule",
                   *common_flags(toolchain, sdk, cache, modules), *c_flags]
        if not (target.kind == "executable" and has_main):
            command.append("-parse-as-library")
        if not checked:
            command += ["-Xfrontend", "-experimental-skip-non-inlinable-function-bodies-without-types"]
            command.remove("-wmo")
        command += copies
        label = "checking" if checked else "building (dependency, bodies skipped)"
        print(f"darwin-check: {label} {name} ({len(copies)} files)", flush=True)
        # A dependency without a module (errors outside function bodies) shows up as "no such
        # module" where it is imported; the target is checked anyway, as far as it goes.
        began = time.monotonic()
        status, output = run(command, verbose=verbose)
        if status != 0 and checked:
            # Errors in function bodies: the module can still be emitted with the bodies
            # skipped, so that the targets depending on this one are checked too.
            retry = [part for part in command if part != "-wmo"]
            retry[-len(copies):-len(copies)] = ["-Xfrontend", "-experimental-skip-non-inlinable-function-bodies-without-types"]
            if run(retry, verbose=verbose)[0] != 0:
                failed.add(name)
        elif status != 0:
            failed.add(name)
        for diagnostic in diagnostics.parse(output):
            cascade = re.match(r"no such module '(\w+)'", diagnostic["message"])
            if cascade and cascade.group(1) in {targets[n].module for n in failed if n in targets}:
                diagnostic["message"] += " (its own errors are listed above)"
            source = files_by_rel.get(diagnostic["path"])
            diagnostic["darwin_only"] = bool(source and source.in_darwin_only(diagnostic["line"]))
            summary["errors" if diagnostic["severity"] == "error" else "warnings"].append(diagnostic)
        if checked and audit:
            libc_modules = {"Foundation", "Darwin", "Glibc"} | c_modules
            primaries = [copy for copy, path in zip(copies, target.swift_files)
                         if files_by_rel[path.relative_to(source_root).as_posix()].imports & libc_modules]
            used = libc_audit(toolchain, common_flags(toolchain, sdk, cache, modules) + c_flags, target.module,
                              copies, primaries, not (target.kind == "executable" and has_main), verbose)
            summary["libc"] = sorted(used)
            for symbol, (path, line) in sorted(used.items()):
                if symbol not in reviewed:
                    shown, line = diagnostics.map(path, line)
                    source = files_by_rel.get(shown)
                    summary["errors"].append({
                        "path": shown, "line": line, "column": 1, "severity": "error", "libc": True,
                        "darwin_only": bool(source and source.in_darwin_only(line)),
                        "message": f"'{symbol}' comes from Glibc's headers here, and is not in "
                                   "Scripts/darwin-stubs/libc-reviewed.txt: check Apple's declaration, then list it "
                                   "(or declare its Darwin form in Scripts/darwin-stubs)"})
        summary["seconds"] = time.monotonic() - began
        if status != 0 and not any(d["severity"] == "error" for d in summary["errors"]):
            summary["errors"].append({"path": "", "line": 0, "column": 0, "severity": "error",
                                      "message": f"swiftc failed without a diagnostic:\n{output[-2000:]}"})
        results.append(summary)
    return {"targets": results, "seconds": time.monotonic() - started, "planted": planted,
            "files": files_by_rel, "audit": audit}


def print_report(report, toolchain, show_warnings):
    results = report["targets"]
    print()
    print(f"darwin-check: {toolchain['version_text']}, {toolchain['triple']}, stubs in Scripts/darwin-stubs")
    header = f"{'target':32} {'files':>5} {'Darwin-only branches':>21} {'errors':>7} {'warnings':>9} {'time':>7}"
    print(header)
    print("-" * len(header))
    for summary in results:
        name = summary["target"] + ("" if summary["checked"] else " (dependency)")
        branches = f"{summary['branches']} ({summary['branch_lines']} lines)"
        print(f"{name:32} {summary['files']:>5} {branches:>21} {len(summary['errors']):>7} "
              f"{len(summary['warnings']):>9} {summary['seconds']:>6.1f}s")
    checked = [s for s in results if s["checked"]]
    print("-" * len(header))
    print(f"{'checked':32} {sum(s['files'] for s in checked):>5} "
          f"{sum(s['branches'] for s in checked):>21} {sum(len(s['errors']) for s in results):>7} "
          f"{sum(len(s['warnings']) for s in results):>9} {report['seconds']:>6.1f}s")
    libc = sorted({symbol for s in results for symbol in s["libc"]})
    unreviewed = sorted({d["message"].split("'")[1] for s in results for d in s["errors"] if d.get("libc")})
    if report.get("audit", True):
        print(f"\nlibc audit: {len(libc)} symbols from Glibc's headers and overlay used by the code Apple compiles; "
              f"{len(libc) - len(unreviewed)} reviewed for Darwin (Scripts/darwin-stubs/libc-reviewed.txt)"
              + (f", not reviewed: {', '.join(unreviewed)}" if unreviewed else ""))
    objc = [entry for s in results for entry in s["objc"]]
    if objc:
        print("\nnot checked, they need the Objective-C runtime (rewritten to false, their #else compiled):")
        for entry in objc:
            print(f"  {entry}")

    def show(diagnostic):
        where = f"{diagnostic['path']}:{diagnostic['line']}:{diagnostic['column']}" if diagnostic["path"] else "(no location)"
        scope = " [Darwin-only branch]" if diagnostic.get("darwin_only") else ""
        return f"  {where}: {diagnostic['severity']}: {diagnostic['message']}{scope}"

    errors = [(s["target"], d) for s in results for d in s["errors"]]
    if show_warnings:
        warnings = [(s["target"], d) for s in results for d in s["warnings"]]
    else:
        warnings = [(s["target"], d) for s in results for d in s["warnings"] if d.get("darwin_only")]
    if warnings:
        print(f"\nwarnings{' ' if show_warnings else ' in Darwin-only branches '}({len(warnings)}):")
        for target, diagnostic in warnings:
            print(show(diagnostic) + f" ({target})")
    if errors:
        print(f"\nerrors ({len(errors)}):")
        for target, diagnostic in errors:
            print(show(diagnostic) + f" ({target})")
        print("\ndarwin-check: FAILED: the code above doesn't compile for Apple platforms "
              "(or a stub lacks an Apple declaration: Scripts/darwin-stubs/README.md).")
    else:
        print("\ndarwin-check: OK: every checked target compiles in Darwin mode.")
    return 1 if errors else 0


# --- Self-test -------------------------------------------------------------------------------

PLANT = 'let planted: Int = "not an Int"  // darwin-check --self-test'
# A libc function that compiles here but isn't in libc-reviewed.txt: the audit must name it.
PLANT_LIBC = "let plantedLibc = getppid()  // darwin-check --self-test"
PLANT_SITES = [
    # (file, condition of the Darwin-only branch to plant in, preferably inside a function,
    # the lines to plant)
    ("Sources/ImageProbeCLI/FileProbe.swift", "canImport(Darwin)", [PLANT, PLANT_LIBC]),
    ("Sources/ImageProbeFetch/URLSessionTransport.swift", "canImport(Security)", [PLANT]),
]


def plant_line(rel, text, toolchain, package_targets, linux_only):
    """Inserts the site's lines into the first Darwin-only branch of `rel` whose condition is
    the site's (not one of imports only), inside the branch's first function if it has one.
    Returns (text, [(planted line, planted text)])."""
    for site, wanted, planted in PLANT_SITES:
        if rel != site:
            continue
        source = SourceFile(rel, text, toolchain, package_targets, linux_only)
        lines = text.split("\n")
        candidates = []
        for first, last in source.darwin_only:
            match = DIRECTIVE.match(lines[first - 1])
            if match and wanted in match.group(3):
                candidates.append((first, last))
        if not candidates:
            raise CheckError(f"self-test: no Darwin-only `{wanted}` branch in {rel} to plant in")
        # Not a branch of imports; preferably one holding a function, planted in its body.
        def only_imports(first, last):
            return all(not line.strip() or line.strip().startswith(("import ", "//"))
                       for line in lines[first:last - 1])

        candidates = [c for c in candidates if not only_imports(*c)] or candidates
        after, indent = None, ""
        for first, last in candidates:
            for number in range(first + 1, last):
                if re.search(r"\bfunc\b.*\{\s*$", lines[number - 1]):
                    after, indent = number, re.match(r"\s*", lines[number - 1]).group(0) + "    "
                    break
            if after:
                break
        if after is None:
            after = candidates[0][0]
            indent = re.match(r"\s*", lines[after - 1]).group(0)
        for offset, line in enumerate(planted):
            lines.insert(after + offset, indent + line)
        return "\n".join(lines), [(after + 1 + offset, line) for offset, line in enumerate(planted)]
    return text, []


def self_test(toolchain, scratch, verbose):
    copy = scratch / "self-test"
    shown = os.path.relpath(copy, ROOT) if str(copy).startswith(str(ROOT)) else str(copy)
    print(f"darwin-check --self-test: copying the sources to {shown}, planting errors in Darwin-only branches")
    repo = copy / "repo"
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    for entry in ("Package.swift", "Sources", "Tests", "Fuzz", "Benchmarks"):
        source = ROOT / entry
        if source.is_dir():
            shutil.copytree(source, repo / entry, ignore=shutil.ignore_patterns(".build*", "corpus"))
        elif source.exists():
            shutil.copy2(source, repo / entry)
    report = check(repo, copy / "check", SELF_TEST_TARGETS, toolchain, verbose, plant=plant_line)
    print("\nself-test: the report on the planted copy (expected to fail; line numbers are the copy's):")
    status = print_report(report, toolchain, show_warnings=False)
    print()
    failures = []
    if status != 1:
        failures.append("the check passed with planted errors")
    errors = [d for s in report["targets"] for d in s["errors"]]
    planted = report["planted"]
    expected = sum(len(lines) for _, _, lines in PLANT_SITES)
    if len(planted) != expected:
        failures.append(f"planted {len(planted)} lines, expected {expected}")
    for rel, line, content in planted:
        hits = [d for d in errors if d["path"] == rel and d["line"] == line]
        wanted = (lambda m: "getppid" in m) if content == PLANT_LIBC else (lambda m: "'String'" in m and "'Int'" in m)
        if not hits:
            failures.append(f"no error reported at the planted line {rel}:{line}")
        elif not any(wanted(d["message"]) for d in hits):
            failures.append(f"{rel}:{line}: unexpected message: {hits[0]['message']}")
        elif not all(d["darwin_only"] for d in hits):
            failures.append(f"{rel}:{line}: not reported as in a Darwin-only branch")
        else:
            print(f"self-test: the planted line is reported: {rel}:{line}: {hits[0]['message']}")
    planted_lines = {(rel, line) for rel, line, _ in planted}
    others = [d for d in errors if (d["path"], d["line"]) not in planted_lines]
    if others:
        print(f"self-test: ({len(others)} other errors in these targets, not planted: see the list above)")
    print("self-test: the stubs shadow Glibc: `Int32(SOCK_STREAM.rawValue)` doesn't compile in Darwin mode")
    if failures:
        print("\ndarwin-check --self-test: FAILED")
        for failure in failures:
            print("  " + failure)
        return 1
    print("\ndarwin-check --self-test: OK")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-test", action="store_true", help="plant errors in a copy and check they are caught")
    parser.add_argument("--targets", help="comma-separated targets to check (default: " + ", ".join(CHECKED) + ")")
    parser.add_argument("--scratch", type=Path, default=ROOT / ".build" / "darwin-check",
                        help="scratch directory (default: .build/darwin-check)")
    parser.add_argument("--warnings", action="store_true", help="list every warning, not only those in Darwin-only branches")
    parser.add_argument("--no-libc-audit", action="store_true",
                        help="don't list the libc symbols the Darwin-mode code takes from Glibc (faster)")
    parser.add_argument("--verbose", action="store_true", help="print the commands")
    arguments = parser.parse_args()
    try:
        toolchain = toolchain_info(find_swiftc())
        arguments.scratch.mkdir(parents=True, exist_ok=True)
        if arguments.self_test:
            return self_test(toolchain, arguments.scratch, arguments.verbose)
        names = arguments.targets.split(",") if arguments.targets else CHECKED
        report = check(ROOT, arguments.scratch, names, toolchain, arguments.verbose,
                       audit=not arguments.no_libc_audit)
        return print_report(report, toolchain, arguments.warnings)
    except CheckError as error:
        print(f"darwin-check: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
