#!/usr/bin/env python3
"""Checks, without an Apple machine, that the package builds at its declared Apple floors.

    python3 Scripts/availability.py [--list] [--ambiguous] [--self-test]

The floors are read from Package.swift (`swift package dump-package`). Availability facts come
from the toolchain's own interfaces, whose `@available` attributes name the Apple version each
API was introduced in, and, for what those don't say, from Apple's documentation (FOUNDATION).

1. The core module (`Sources/ImageProbe`, standard library only) is type-checked by the
   compiler itself for macOS, iOS, tvOS and watchOS at the declared floors: the interfaces are
   compiled into standard-library modules for each Apple triple (cached in
   .build/availability), and `swiftc -typecheck -target <triple>` enforces availability
   exactly as Xcode would. A second run at a lower floor lists every API the core uses that is
   newer than that, with its version. A target that imports nothing but the core
   (ImageProbeFixtures) is type-checked the same way, with the core as one module.
2. Every other Apple-compiled target (the package's targets with Swift sources, tests and
   executables included) can't be type-checked that way here: most import Foundation, and
   there is no Foundation for an Apple triple on Linux (the Linux modules are binary-only,
   built for Linux, and differ from Apple's: no Security, no Darwin, no URLSession delegate
   API as on Apple; the Apple-only branches, `#if canImport(Darwin)` and the like, would not
   even be compiled). Their sources are scanned instead:
   - the index: every declaration of the standard-library interfaces that carry Apple
     availability (Swift, _Concurrency, _StringProcessing, Synchronization, RegexBuilder,
     Observation, Distributed, Testing, ...), of interfaces synthesized from Linux's Foundation
     modules (swift-synthesize-interface: FoundationEssentials carries Apple's availability,
     corelibs Foundation mostly doesn't), the table FOUNDATION below (Apple's documented
     versions; it overrides a declaration of the same name and labels), and the package's own
     declarations (an `@available` one is an API like any other; an unannotated one of the same
     name and labels masks an Apple one, as text can't tell which is called);
   - the code: comments and string contents blanked (interpolations kept), `#if` branches that
     are false on every Apple platform (`os(Linux)`, `canImport(Glibc)`, ...) blanked, matched
     over the whole file so that a call split across lines is one call; each identifier naming
     a newer API is judged by its form: a type (`Mutex<Int>`), an initializer (`URL(filePath:)`),
     a member (`.appending(path:)`, `Date.now`, `url.path()`) or a free function
     (`withDiscardingTaskGroup(returning:) { }`), the call's argument labels and trailing
     closures checked against each declaration's parameters (defaults, variadics), the type
     before the dot used when it names one;
   - the guard: a use passes when an enclosing `@available` declaration (type, extension,
     function, property), `if #available` body (not its `else`), the rest of the scope after
     `guard #available ... else { }`, or the `else` of `#unavailable` covers its version on
     each platform.
   A use is reported only when every declaration it can name is newer than the floor; one that
   an older overload could also satisfy (`split(separator:)`, `.seconds(1)`) is listed by
   --ambiguous; --list lists the guarded uses. `--self-test` (also part of every run) scans a
   probe file with known answers: unguarded uses in every form above, guarded ones, decoys.
   Limits, as text: a receiver's type is known only from an annotation or an initial value in
   the same file; an Apple API missing from both Linux's interfaces and FOUNDATION is unknown.

Exits 1 on any API used above a floor without `@available`. visionOS (arm64 only) is not
checked: its 1.0 postdates every API above the other floors except those of 2024 on, which
name visionOS 2 alongside iOS 18.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

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
SCAN_PLATFORMS = [name for name, _, _ in PLATFORMS.values()]

# The Apple releases the APIs below arrived in.
APPLE_2014 = {"macOS": "10.10", "iOS": "8.0", "tvOS": "9.0", "watchOS": "2.0"}
APPLE_2019 = {"macOS": "10.15", "iOS": "13.0", "tvOS": "13.0", "watchOS": "6.0"}
APPLE_2020 = {"macOS": "10.15.4", "iOS": "13.4", "tvOS": "13.4", "watchOS": "6.2"}
APPLE_2021 = {"macOS": "12.0", "iOS": "15.0", "tvOS": "15.0", "watchOS": "8.0"}
APPLE_2022 = {"macOS": "13.0", "iOS": "16.0", "tvOS": "16.0", "watchOS": "9.0"}
APPLE_2023 = {"macOS": "14.0", "iOS": "17.0", "tvOS": "17.0", "watchOS": "10.0"}
# Foundation (and os) APIs a networking or file-handling Swift developer reaches for, as Apple's
# documentation (developer.apple.com/documentation/<path>) gives their introduction: (module,
# owner type, declaration, versions, path). They override what Linux's Foundation declares
# (corelibs Foundation carries no Apple availability); some are at or below the floors and are
# listed so that the older overload is known (`data(for:)` beside `data(for:delegate:)`).
FOUNDATION = [
    ("Foundation", "URL", "func path(percentEncoded: Bool = true) -> String", APPLE_2022, "foundation/url/path(percentencoded:)"),
    ("Foundation", "URL", "func host(percentEncoded: Bool = true) -> String?", APPLE_2022, "foundation/url/host(percentencoded:)"),
    ("Foundation", "URL", "func query(percentEncoded: Bool = true) -> String?", APPLE_2022, "foundation/url/query(percentencoded:)"),
    ("Foundation", "URL", "func fragment(percentEncoded: Bool = true) -> String?", APPLE_2022, "foundation/url/fragment(percentencoded:)"),
    ("Foundation", "URL", "func user(percentEncoded: Bool = true) -> String?", APPLE_2022, "foundation/url/user(percentencoded:)"),
    ("Foundation", "URL", "func password(percentEncoded: Bool = true) -> String?", APPLE_2022, "foundation/url/password(percentencoded:)"),
    ("Foundation", "URL", "init(filePath path: String, directoryHint: URL.DirectoryHint = .inferFromPath, relativeTo base: URL? = nil)", APPLE_2022, "foundation/url/init(filepath:directoryhint:relativeto:)"),
    ("Foundation", "URL", "init?(string: String, encodingInvalidCharacters: Bool)", APPLE_2023, "foundation/url/init(string:encodinginvalidcharacters:)"),
    ("Foundation", "URL", "func appending(path: String, directoryHint: URL.DirectoryHint = .inferFromPath) -> URL", APPLE_2022, "foundation/url/appending(path:directoryhint:)"),
    ("Foundation", "URL", "func appending(component: String, directoryHint: URL.DirectoryHint = .inferFromPath) -> URL", APPLE_2022, "foundation/url/appending(component:directoryhint:)"),
    ("Foundation", "URL", "func appending(components: String..., directoryHint: URL.DirectoryHint = .inferFromPath) -> URL", APPLE_2022, "foundation/url/appending(components:directoryhint:)"),
    ("Foundation", "URL", "func appending(queryItems: [URLQueryItem]) -> URL", APPLE_2022, "foundation/url/appending(queryitems:)"),
    ("Foundation", "URL", "mutating func append(path: String, directoryHint: URL.DirectoryHint = .inferFromPath)", APPLE_2022, "foundation/url/append(path:directoryhint:)"),
    ("Foundation", "URL", "mutating func append(component: String, directoryHint: URL.DirectoryHint = .inferFromPath)", APPLE_2022, "foundation/url/append(component:directoryhint:)"),
    ("Foundation", "URL", "mutating func append(queryItems: [URLQueryItem])", APPLE_2022, "foundation/url/append(queryitems:)"),
    ("Foundation", "URL", "static var homeDirectory: URL", APPLE_2022, "foundation/url/homedirectory"),
    ("Foundation", "URL", "static func homeDirectory(forUser user: String) -> URL?", APPLE_2022, "foundation/url/homedirectory(foruser:)"),
    ("Foundation", "URL", "static var temporaryDirectory: URL", APPLE_2022, "foundation/url/temporarydirectory"),
    ("Foundation", "URL", "static var documentsDirectory: URL", APPLE_2022, "foundation/url/documentsdirectory"),
    ("Foundation", "URL", "static var cachesDirectory: URL", APPLE_2022, "foundation/url/cachesdirectory"),
    ("Foundation", "URL", "static var applicationSupportDirectory: URL", APPLE_2022, "foundation/url/applicationsupportdirectory"),
    ("Foundation", "URL", "static func currentDirectory() -> URL", APPLE_2022, "foundation/url/currentdirectory()"),
    ("Foundation", "URL", "struct DirectoryHint", APPLE_2022, "foundation/url/directoryhint"),
    ("Foundation", "URL", "var resourceBytes: URL.AsyncBytes", APPLE_2021, "foundation/url/resourcebytes"),
    ("Foundation", "URL", "var lines: AsyncLineSequence<URL.AsyncBytes>", APPLE_2021, "foundation/url/lines"),
    ("Foundation", "Date", "static var now: Date", APPLE_2021, "foundation/date/now"),
    ("Foundation", "Date", "func formatted() -> String", APPLE_2021, "foundation/date/formatted()"),
    ("Foundation", "Date", "func formatted<F>(_ format: F) -> F.FormatOutput", APPLE_2021, "foundation/date/formatted(_:)"),
    ("Foundation", "Date", "func formatted(date: Date.FormatStyle.DateStyle, time: Date.FormatStyle.TimeStyle) -> String", APPLE_2021, "foundation/date/formatted(date:time:)"),
    ("Foundation", "Date", "func ISO8601Format(_ style: Date.ISO8601FormatStyle = .init()) -> String", APPLE_2021, "foundation/date/iso8601format(_:)"),
    ("Foundation", "FileHandle", "func read(upToCount count: Int) throws -> Data?", APPLE_2020, "foundation/filehandle/read(uptocount:)"),
    ("Foundation", "FileHandle", "func readToEnd() throws -> Data?", APPLE_2020, "foundation/filehandle/readtoend()"),
    ("Foundation", "FileHandle", "func seekToEnd() throws -> UInt64", APPLE_2020, "foundation/filehandle/seektoend()"),
    ("Foundation", "FileHandle", "func offset() throws -> UInt64", APPLE_2020, "foundation/filehandle/offset()"),
    ("Foundation", "FileHandle", "func write<T>(contentsOf data: T) throws", APPLE_2020, "foundation/filehandle/write(contentsof:)"),
    # Objective-C's error-returning methods, macOS 10.15 (the Swift-only ones above: 10.15.4).
    ("Foundation", "FileHandle", "func seek(toOffset offset: UInt64) throws", APPLE_2019, "foundation/filehandle/seek(tooffset:)"),
    ("Foundation", "FileHandle", "func close() throws", APPLE_2019, "foundation/filehandle (closeAndReturnError:)"),
    ("Foundation", "FileHandle", "func synchronize() throws", APPLE_2019, "foundation/filehandle (synchronizeAndReturnError:)"),
    ("Foundation", "FileHandle", "func truncate(atOffset offset: UInt64) throws", APPLE_2019, "foundation/filehandle (truncateAtOffset:error:)"),
    ("Foundation", "FileHandle", "var bytes: FileHandle.AsyncBytes", APPLE_2021, "foundation/filehandle/bytes"),
    ("Foundation", "URLSession", "func data(for request: URLRequest, delegate: URLSessionTaskDelegate? = nil) async throws -> (Data, URLResponse)", APPLE_2021, "foundation/urlsession/data(for:delegate:)"),
    # Without its delegate: a back-deployed overload of recent SDKs, documented from macOS 10.15.
    ("Foundation", "URLSession", "func data(for request: URLRequest) async throws -> (Data, URLResponse)", APPLE_2019, "foundation/urlsession/data(for:)"),
    ("Foundation", "URLSession", "func data(from url: URL, delegate: URLSessionTaskDelegate? = nil) async throws -> (Data, URLResponse)", APPLE_2021, "foundation/urlsession/data(from:delegate:)"),
    ("Foundation", "URLSession", "func bytes(for request: URLRequest, delegate: URLSessionTaskDelegate? = nil) async throws -> (URLSession.AsyncBytes, URLResponse)", APPLE_2021, "foundation/urlsession/bytes(for:delegate:)"),
    ("Foundation", "URLSession", "func bytes(from url: URL, delegate: URLSessionTaskDelegate? = nil) async throws -> (URLSession.AsyncBytes, URLResponse)", APPLE_2021, "foundation/urlsession/bytes(from:delegate:)"),
    ("Foundation", "URLSession", "func upload(for request: URLRequest, from bodyData: Data, delegate: URLSessionTaskDelegate? = nil) async throws -> (Data, URLResponse)", APPLE_2021, "foundation/urlsession/upload(for:from:delegate:)"),
    ("Foundation", "URLSession", "func upload(for request: URLRequest, fromFile fileURL: URL, delegate: URLSessionTaskDelegate? = nil) async throws -> (Data, URLResponse)", APPLE_2021, "foundation/urlsession/upload(for:fromfile:delegate:)"),
    ("Foundation", "URLSession", "func download(for request: URLRequest, delegate: URLSessionTaskDelegate? = nil) async throws -> (URL, URLResponse)", APPLE_2021, "foundation/urlsession/download(for:delegate:)"),
    ("Foundation", "URLSession", "func download(from url: URL, delegate: URLSessionTaskDelegate? = nil) async throws -> (URL, URLResponse)", APPLE_2021, "foundation/urlsession/download(from:delegate:)"),
    ("Foundation", "URLSession", "func download(resumeFrom resumeData: Data, delegate: URLSessionTaskDelegate? = nil) async throws -> (URL, URLResponse)", APPLE_2021, "foundation/urlsession/download(resumefrom:delegate:)"),
    ("Foundation", "URLSession", "struct AsyncBytes", APPLE_2021, "foundation/urlsession/asyncbytes"),
    ("Foundation", "URLSessionTask", "var delegate: URLSessionTaskDelegate?", APPLE_2021, "foundation/urlsessiontask/delegate"),
    ("Foundation", "URLSessionConfiguration", "var requiresDNSSECValidation: Bool", APPLE_2022, "foundation/urlsessionconfiguration/requiresdnssecvalidation"),
    ("Foundation", "URLRequest", "var requiresDNSSECValidation: Bool",
     {"macOS": "13.0", "iOS": "16.1", "tvOS": "16.1", "watchOS": "9.1"}, "foundation/urlrequest/requiresdnssecvalidation"),
    ("Foundation", "URLRequest", "var assumesHTTP3Capable: Bool",
     {"macOS": "11.3", "iOS": "14.5", "tvOS": "14.5", "watchOS": "7.4"}, "foundation/urlrequest/assumeshttp3capable"),
    ("Foundation", "ProcessInfo", "var isLowPowerModeEnabled: Bool",
     {"macOS": "12.0", "iOS": "9.0", "tvOS": "9.0", "watchOS": "2.0"}, "foundation/processinfo/islowpowermodeenabled"),
    ("Foundation", "ProcessInfo", "var isiOSAppOnMac: Bool",
     {"macOS": "11.0", "iOS": "14.0", "tvOS": "14.0", "watchOS": "7.0"}, "foundation/processinfo/isiosapponmac"),
    # An extension emitted into the client: every OS, with an SDK of 2023 or later.
    ("Foundation", "NSLocking", "func withLock<R>(_ body: () throws -> R) rethrows -> R", APPLE_2014, "foundation/nslocking/withlock(_:)"),
    ("os", None, "struct OSAllocatedUnfairLock<State>", APPLE_2022, "os/osallocatedunfairlock"),
]

# Standard-library modules whose interfaces are indexed only where a file imports them; the
# first three are imported implicitly. Linux-only overlays are left out.
IMPLICIT = ["Swift", "_Concurrency", "_StringProcessing"]
NOT_ON_APPLE = {"Glibc", "Musl", "Cxx", "CxxStdlib", "_Builtin_float", "SwiftOnoneSupport", "_Volatile"}
# Linux's Foundation modules, read through swift-synthesize-interface; on Apple platforms all
# of them are `import Foundation` (which also re-exports Dispatch).
FOUNDATION_MODULES = ["FoundationEssentials", "FoundationInternationalization", "Foundation", "FoundationNetworking"]
# What `#if canImport(...)` says on every Apple platform.
ABSENT_ON_APPLE = {"Glibc", "Musl", "FoundationNetworking", "FoundationXML", "WinSDK", "ucrt", "CRT", "Android",
                   "Bionic", "WASILibc", "wasi_pthread", "CCurl", "CCurlShim"}
PRESENT_ON_APPLE = {"Darwin", "Foundation", "Dispatch", "Security", "os", "ObjectiveC", "CoreFoundation", "Network",
                    "Combine", "XCTest", "Testing", "Synchronization", "OSLog", "Swift", "_Concurrency"}
NON_APPLE_OS = {"Linux", "Windows", "Android", "FreeBSD", "OpenBSD", "WASI", "Cygwin", "PS4", "Haiku", "none"}


def version_tuple(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def version_text(version):
    parts = list(version)
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    return ".".join(str(part) for part in parts)


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def package_description():
    # A scratch path of its own: `dump-package` needs no build, and so doesn't wait for one.
    scratch = os.path.join(ROOT, ".build", "availability", "spm")
    return json.loads(run(["swift", "package", "--scratch-path", scratch, "dump-package"], cwd=ROOT).stdout)


def floors(package):
    return {entry["platformName"]: entry["version"] for entry in package.get("platforms", [])}


def toolchain_paths():
    info = json.loads(run(["swiftc", "-print-target-info"]).stdout)
    resource = info["paths"]["runtimeResourcePath"]
    return os.path.join(resource, "linux"), os.path.join(resource, "shims"), info["target"]["triple"]


def interface_path(library, module):
    directory = os.path.join(library, module + ".swiftmodule")
    for name in sorted(os.listdir(directory)):
        if name.endswith(".swiftinterface") and ".private." not in name:
            return os.path.join(directory, name)
    raise SystemExit("no interface for %s in %s" % (module, directory))


def compiler_version():
    return run(["swiftc", "--version"]).stdout.strip().splitlines()[0]


def standard_library_for(triple, library, shims):
    """The standard-library modules compiled from the Linux interfaces for an Apple triple."""
    version = compiler_version()
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


# --- Swift source as text: comments and strings, #if, brackets --------------------------------

CODE_STOP = re.compile(r'//|/\*|#/|#*"|[()]')
STRING_STOP = re.compile(r'\\|"|\n')


def clean_swift(text):
    """The code of a Swift file with comments and the contents of string literals blanked: same
    length, newlines kept (offsets and lines map back), quotes kept, interpolations kept as code."""
    out = list(text)
    n = len(text)

    def blank(start, end):
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    frames = [["code", 0]]  # a code frame counts parentheses, to find where an interpolation ends
    i = 0
    while i < n:
        frame = frames[-1]
        if frame[0] == "code":
            found = CODE_STOP.search(text, i)
            if not found:
                break
            token, start = found.group(), found.start()
            if token == "//":
                end = text.find("\n", start)
                end = n if end < 0 else end
                blank(start, end)
                i = end
            elif token == "/*":
                depth, j = 0, start
                while j < n:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                        if depth == 0:
                            break
                    else:
                        j += 1
                blank(start, j)
                i = j
            elif token == "#/":
                end = text.find("/#", start + 2)
                end = n if end < 0 else end
                blank(start + 2, end)
                i = end + 2
            elif token.endswith('"'):
                hashes = len(token) - 1
                multi = text.startswith('"""', start + hashes)
                i = start + hashes + (3 if multi else 1)
                frames.append(["string", hashes, multi])
            elif token == "(":
                if len(frames) > 1:
                    frame[1] += 1
                i = start + 1
            else:
                if len(frames) > 1:
                    if frame[1] == 0:
                        frames.pop()
                    else:
                        frame[1] -= 1
                i = start + 1
        else:
            _, hashes, multi = frame
            found = STRING_STOP.search(text, i)
            if not found:
                blank(i, n)
                break
            start, token = found.start(), found.group()
            blank(i, start)
            if token == "\n":
                if not multi:
                    frames.pop()  # unterminated: recover at the end of the line
                i = start + 1
            elif token == '"':
                closing = ('"""' if multi else '"') + "#" * hashes
                if text.startswith(closing, start):
                    frames.pop()
                    i = start + len(closing)
                else:
                    out[start] = " "
                    i = start + 1
            elif text.startswith("#" * hashes, start + 1):
                k = start + 1 + hashes
                if k < n and text[k] == "(":
                    blank(start, k)  # the backslash: the parentheses and what's in them stay
                    frames.append(["code", 0])
                    i = k + 1
                else:
                    blank(start, k + 1)
                    i = k + 1
            else:
                out[start] = " "
                i = start + 1
    return "".join(out)


DIRECTIVE = re.compile(r"[ \t]*#(if|elseif|else|endif)\b(.*)")


def apply_conditionals(code, evaluate):
    """Blanks `#if` directives and the branches that `evaluate` ("T", "F" or "U" for a condition)
    rules out: a branch stays unless its condition is false, or an earlier one true."""
    lines = code.split("\n")
    chains = []  # [active around the #if, an earlier branch was certainly taken]
    active = True
    for number, line in enumerate(lines):
        directive = DIRECTIVE.match(line) if "#" in line else None
        if directive:
            keyword, condition = directive.group(1), directive.group(2)
            if keyword == "if":
                value = evaluate(condition)
                chains.append([active, value == "T"])
                active = active and value != "F"
            elif chains and keyword == "elseif":
                outer, taken = chains[-1]
                value = evaluate(condition)
                active = outer and not taken and value != "F"
                chains[-1][1] = taken or value == "T"
            elif chains and keyword == "else":
                outer, taken = chains[-1]
                active = outer and not taken
                chains[-1][1] = True
            elif chains:
                active = chains.pop()[0]
            lines[number] = " " * len(line)
        elif not active:
            lines[number] = " " * len(line)
    return "\n".join(lines)


CONDITION_TOKEN = re.compile(r"\s*(&&|\|\||!|\(|\)|[A-Za-z_$][\w$]*\s*\([^()]*\)|[A-Za-z_$][\w$]*|\S)")


def apple_condition(text):
    """"T", "F" or "U": what an #if condition is on every Apple platform."""
    tokens = CONDITION_TOKEN.findall(text)
    position = [0]

    def peek():
        return tokens[position[0]] if position[0] < len(tokens) else None

    def take():
        position[0] += 1
        return tokens[position[0] - 1]

    def atom():
        token = take() if peek() is not None else None
        if token is None:
            return "U"
        if token == "!":
            value = atom()
            return {"T": "F", "F": "T"}.get(value, "U")
        if token == "(":
            value = disjunction()
            if peek() == ")":
                take()
            return value
        call = re.match(r"([A-Za-z_]\w*)\s*\((.*)\)$", token)
        if call:
            function, argument = call.group(1), call.group(2).split(",")[0].strip()
            if function == "os":
                return "F" if argument in NON_APPLE_OS else "U"
            if function == "canImport":
                return "F" if argument in ABSENT_ON_APPLE else "T" if argument in PRESENT_ON_APPLE else "U"
            if function == "_runtime":
                return "T" if argument == "_ObjC" else "F"
            return "U"
        return {"true": "T", "false": "F"}.get(token, "U")

    def conjunction():
        value = atom()
        while peek() == "&&":
            take()
            other = atom()
            value = "F" if "F" in (value, other) else "T" if value == other == "T" else "U"
        return value

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take()
            other = conjunction()
            value = "T" if "T" in (value, other) else "F" if value == other == "F" else "U"
        return value

    return disjunction()


def first_branches(condition):
    return "T"


BRACKET = re.compile(r"[()\[\]{}]")


def bracket_matches(code):
    """Each bracket's partner, by index, both ways."""
    partner, stack = {}, []
    for found in BRACKET.finditer(code):
        index, character = found.start(), found.group()
        if character in "([{":
            stack.append(index)
        elif stack:
            opening = stack.pop()
            partner[opening] = index
            partner[index] = opening
    return partner


def brace_parents(code, partner):
    """Each '{' (that has a partner) mapped to its innermost enclosing '{', or -1."""
    parents, stack = {}, []
    for index in sorted(i for i, c in ((i, code[i]) for i in partner) if c == "{"):
        while stack and partner[stack[-1]] < index:
            stack.pop()
        parents[index] = stack[-1] if stack else -1
        stack.append(index)
    return parents


def innermost(opens, partner, positions):
    """For each position (any order), the innermost '{' around it, or -1."""
    result, stack, queue = {}, [], sorted(set(positions))
    events = sorted([(index, 0) for index in opens] + [(position, 1) for position in queue])
    for index, kind in events:
        while stack and partner[stack[-1]] < index:
            stack.pop()
        if kind == 0:
            stack.append(index)
        else:
            result[index] = stack[-1] if stack else -1
    return result


def is_word(character):
    return character.isalnum() or character == "_"


def word_before(code, end):
    """The identifier ending just before `end`: (start, word)."""
    start = end
    while start > 0 and is_word(code[start - 1]):
        start -= 1
    return start, code[start:end]


def skip_space(code, index, newlines=True):
    spaces = " \t\r\n" if newlines else " \t"
    while index < len(code) and code[index] in spaces:
        index += 1
    return index


def skip_space_back(code, index):
    """The last non-space index at or before `index`, or -1."""
    while index >= 0 and code[index] in " \t\r\n":
        index -= 1
    return index


def split_top(text, separator=","):
    """`text` split at `separator` outside brackets (generic angle brackets included)."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        character = text[index]
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
        elif character == "<":
            depth += 1
        elif character == ">" and not (index > 0 and text[index - 1] == "-"):
            depth -= 1
        elif character == separator and depth <= 0:
            parts.append(text[start:index])
            start = index + 1
        index += 1
    parts.append(text[start:])
    return parts


def find_top(text, pattern):
    depth = 0
    for index, character in enumerate(text):
        if character in "([{<":
            depth += 1
        elif character in ")]}" or (character == ">" and not (index > 0 and text[index - 1] == "-")):
            depth -= 1
        elif depth <= 0 and re.match(pattern, text[index:]):
            return index
    return -1


# --- availability attributes -----------------------------------------------------------------

PLATFORM_NAMES = {"macOS": "macOS", "OSX": "macOS", "iOS": "iOS", "tvOS": "tvOS", "watchOS": "watchOS",
                  "visionOS": "visionOS", "xrOS": "visionOS"}
NEVER = (1 << 30,)  # unavailable: no version has it (a declaration), every version (a scope)
ZERO = (0, 0, 0)


def parse_available(arguments):
    """{platform: version} from the arguments of @available or #available; NEVER for
    `unavailable`."""
    versions = {}
    parts = [part.strip() for part in arguments.split(",") if part.strip()]
    if not parts:
        return versions
    if re.fullmatch(r"\*|[A-Za-z]\w*", parts[0]) and len(parts) > 1 and all(
            ":" in part or re.fullmatch(r"[A-Za-z]\w*", part) for part in parts[1:]):
        platforms = SCAN_PLATFORMS + ["visionOS"] if parts[0] == "*" else [PLATFORM_NAMES.get(parts[0])]
        for part in parts[1:]:
            if part == "unavailable":
                for platform in platforms:
                    if platform:
                        versions[platform] = NEVER
            introduced = re.fullmatch(r"introduced\s*:\s*([\d.]+)", part)
            if introduced and parts[0] != "*" and platforms[0] and platforms[0] not in versions:
                versions[platforms[0]] = version_tuple(introduced.group(1))
        return versions
    for part in parts:
        shorthand = re.fullmatch(r"([A-Za-z]\w*)\s+([\d.]+)", part)
        if shorthand and shorthand.group(1) in PLATFORM_NAMES:
            versions[PLATFORM_NAMES[shorthand.group(1)]] = version_tuple(shorthand.group(2))
    return versions


def merge(*dicts):
    """Per platform, the latest (NEVER wins)."""
    merged = {}
    for versions in dicts:
        for platform, version in versions.items():
            if platform not in merged or version > merged[platform]:
                merged[platform] = version
    return merged


# --- declarations -----------------------------------------------------------------------------

DECL_KEYWORD = re.compile(r"\b(func|init|subscript|var|let|case|struct|class|enum|protocol|actor|extension|"
                          r"typealias|associatedtype|macro|deinit)\b")
TYPE_KINDS = {"struct", "class", "enum", "protocol", "actor", "extension"}
BODY_KINDS = TYPE_KINDS | {"func", "init", "subscript", "deinit", "macro"}
MODIFIERS = {"public", "private", "fileprivate", "internal", "package", "open", "static", "class", "final",
             "override", "mutating", "nonmutating", "nonisolated", "convenience", "required", "lazy", "weak",
             "unowned", "dynamic", "indirect", "distributed", "optional", "prefix", "postfix", "infix",
             "isolated", "consuming", "borrowing", "__consuming", "sending"}
NAME = re.compile(r"\s*(`[^`]+`|[A-Za-z_]\w*)")
QUALIFIED = re.compile(r"\s*((?:`[^`]+`|[A-Za-z_]\w*)(?:\s*\.\s*(?:`[^`]+`|[A-Za-z_]\w*))*)")
MODULE_NAMES = set(IMPLICIT) | set(FOUNDATION_MODULES) | {
    "Synchronization", "RegexBuilder", "Observation", "Distributed", "_Differentiation", "Runtime", "Testing",
    "Dispatch", "Darwin", "Glibc", "os", "ObjectiveC", "CoreFoundation"}


class Decl:
    __slots__ = ("kind", "name", "owner", "params", "versions", "module", "origin", "shown", "result")

    def __init__(self, kind, name, owner, params, versions, module, origin, result=None):
        self.kind, self.name, self.owner, self.params = kind, name, owner, params
        self.versions, self.module, self.origin = versions, module, origin
        self.result = result  # the type (short name) of a property, a call's result, a case
        labels = "".join("%s:" % (label or "_") for label, _, _ in params) if params is not None else None
        base = "%s.%s" % (owner, name) if owner and kind != "init" else (owner or "") + (".init" if kind == "init" else name)
        if kind == "init" and not owner:
            base = "init"
        self.shown = base + ("(%s)" % labels if labels is not None and kind != "type" else "")

    def key(self):
        labels = tuple(label for label, _, _ in self.params) if self.params is not None else None
        return (self.owner, self.name, self.kind == "type", labels)


def parse_params(text):
    """[(label or None, has a default, variadic)] of a parameter list's text."""
    params = []
    for part in split_top(text):
        part = part.strip()
        if not part:
            continue
        colon = find_top(part, r":(?!:)")
        if colon < 0:  # an enum case's unlabelled payload
            params.append((None, find_top(part, r"(?<![=!<>])=(?!=)") >= 0, part.endswith("...")))
            continue
        names = part[:colon].split()
        rest = part[colon + 1:]
        equals = find_top(rest, r"(?<![=!<>])=(?!=)")
        kind = rest[:equals] if equals >= 0 else rest
        label = names[0].strip("`") if names else None
        params.append((None if label == "_" else label, equals >= 0, kind.strip().endswith("...")))
    return params


def skip_generics(code, index):
    """Past a generic parameter or argument clause at `index` (after spaces), if there is one."""
    start = skip_space(code, index, newlines=False)
    if start + 1 >= len(code) or code[start] != "<" or code[start + 1] in " \t=<":
        return index  # none, or a comparison
    depth = 0
    for k in range(start, min(len(code), start + 400)):
        character = code[k]
        if character == "<":
            depth += 1
        elif character == ">" and code[k - 1] != "-":
            depth -= 1
            if depth == 0:
                return k + 1
        elif character in "{};" or (character == "\n" and depth == 0):
            return index
    return index


def walk_back(code, partner, keyword):
    """From a declaration keyword back over its modifiers and attributes: (start, [(attribute,
    arguments)], whether it starts a statement)."""
    attributes, start = [], keyword
    while True:
        j = skip_space_back(code, start - 1)
        if j < 0:
            return start, attributes, True
        character = code[j]
        if character == ")" and j in partner:
            opening = partner[j]
            word_start, word = word_before(code, opening)
            if word and word_start > 0 and code[word_start - 1] == "@":
                attributes.append((word, code[opening + 1:j]))
                start = word_start - 1
                continue
            if word in MODIFIERS:
                start = word_start
                continue
            break
        if is_word(character):
            word_start, word = word_before(code, j + 1)
            if word_start > 0 and code[word_start - 1] == "@":
                attributes.append((word, None))
                start = word_start - 1
                continue
            if word in MODIFIERS:
                start = word_start
                continue
        break
    return start, attributes, character in "{};" or "\n" in code[j + 1:start]


def declaration_end(code, partner, index, kind):
    """Where a declaration starting at `index` (its keyword) ends: its body's '}', or its line."""
    n = len(code)
    while index < n:
        character = code[index]
        if character == "{":
            close = partner.get(index, n - 1)
            if kind in BODY_KINDS:
                return close
            index = close + 1
            continue
        if character in "([":
            index = partner.get(index, index) + 1
            continue
        if character in "};":
            return index
        if character == "\n":
            following = skip_space(code, index)
            ahead = code[following:following + 12]
            if kind in BODY_KINDS and re.match(r"(where\b|->|throws\b|async\b|rethrows\b|\{|:|,|&)", ahead):
                index = following
                continue
            if kind not in BODY_KINDS and re.match(r"(\.(?!\.)|\{|=(?!=)|\?\?|&&|\|\||[+*/-](?!\w))", ahead):
                index = following
                continue
            return index
        index += 1
    return n


def type_name(text, owner=None):
    """The short name of the nominal type a type's text names (`Swift.Optional<Foo.Bar>?` →
    "Optional"... but an optional's wrapped type: `URL?` → "URL"), or None (tuples,
    functions, collections' literals)."""
    text = re.sub(r"^\s*(?:(?:any|some|inout|borrowing|consuming|sending|__owned|__shared)\s+|@\w+(?:\([^)]*\))?\s+)*", "", text or "")
    named = re.match(r"((?:`[^`]+`|[A-Za-z_]\w*)(?:\s*\.\s*(?:`[^`]+`|[A-Za-z_]\w*))*)\s*(<)?", text)
    if not named:
        return None
    name = strip_modules(named.group(1)).split(".")[-1].strip("`")
    if name == "Self":
        return owner
    if name == "Optional" and named.group(2):
        return type_name(text[named.end():], owner)
    return name


def strip_modules(qualified):
    parts = [part.strip().strip("`") for part in qualified.split(".")]
    while len(parts) > 1 and parts[0] in MODULE_NAMES:
        parts.pop(0)
    return ".".join(parts)


def parse_declarations(code, module, origin):
    """The declarations of a cleaned Swift text: (members and globals as Decl, [(start, end,
    versions)] of the @available declarations, for the scopes they cover, [(type, [the types
    it inherits or conforms to])])."""
    partner = bracket_matches(code)
    opens = [index for index in partner if code[index] == "{"]
    found = []  # (keyword index, kind, attribute start, attributes)
    for match in DECL_KEYWORD.finditer(code):
        index, kind = match.start(), match.group(1)
        if index > 0 and code[index - 1] in ".@#$`":
            continue
        after = skip_space(code, match.end())
        if kind == "class" and re.match(r"(func|var|let|subscript|init|override|final|static|public|private|"
                                        r"fileprivate|internal|package|open|convenience|required|nonisolated)\b",
                                        code[after:after + 16]):
            continue  # a modifier
        if kind == "actor" and not re.match(r"[A-Za-z_`]", code[after:after + 1]):
            continue
        start, attributes, statement = walk_back(code, partner, index)
        if not statement:
            continue
        found.append((index, kind, start, attributes, match.end()))
    # The bodies of types and extensions, and what they're named.
    bodies = {}  # '{' index → (owner name, versions of the declaration)
    regions, inherits = [], []
    for index, kind, start, attributes, end in found:
        versions = merge(*[parse_available(arguments) for name, arguments in attributes
                           if name == "available" and arguments is not None])
        if versions:
            regions.append((start, declaration_end(code, partner, end, kind), versions))
        if kind in TYPE_KINDS:
            named = (QUALIFIED if kind == "extension" else NAME).match(code, end)
            if not named:
                continue
            k = named.end()
            while k < len(code) and code[k] not in "{};":
                if code[k] in "([":
                    k = partner.get(k, k) + 1
                    continue
                k += 1
            if k < len(code) and code[k] == "{":
                bodies[k] = (strip_modules(named.group(1)), versions, kind)
            clause = code[named.end():k]
            clause = re.split(r"\bwhere\b", clause)[0]
            if ":" in clause:
                supers = [type_name(part) for part in split_top(clause.split(":", 1)[1])]
                inherits.append((strip_modules(named.group(1)).split(".")[-1], [t for t in supers if t]))
    parents = brace_parents(code, partner)
    enclosing = innermost(opens, partner, [index for index, _, _, _, _ in found])

    def context(brace):
        """(owner, inherited versions, kind of the owner) of a '{', or None where it isn't a
        type's body (a function's, a closure's): declarations there are local."""
        if brace == -1:
            return (None, {}, None)
        if brace not in bodies:
            return None
        inherited = []
        b = brace
        while b != -1:
            if b in bodies:
                inherited.append(bodies[b][1])
            b = parents.get(b, -1)
        return (bodies[brace][0], merge(*inherited), bodies[brace][2])

    declarations = []
    for index, kind, start, attributes, end in found:
        where = context(enclosing[index])
        if where is None or kind in ("subscript", "deinit", "macro"):
            continue
        owner, inherited, owner_kind = where
        if kind == "case" and owner_kind != "enum":
            continue
        if any(name == "_spi" for name, _ in attributes):
            continue
        own = merge(*[parse_available(arguments) for name, arguments in attributes
                      if name == "available" and arguments is not None])
        versions = merge(inherited, own)
        short_owner = owner.split(".")[-1] if owner else None
        if kind in TYPE_KINDS or kind in ("typealias", "associatedtype"):
            if kind == "extension":
                continue
            named = NAME.match(code, end)
            if named:
                declarations.append(Decl("type", named.group(1).strip("`"), short_owner, None, versions, module, origin))
        elif kind in ("func", "init"):
            if kind == "func":
                named = NAME.match(code, end)
                if not named:
                    continue
                name, k = named.group(1).strip("`"), named.end()
            else:
                name, k = "init", end
                if k < len(code) and code[k] in "?!":
                    k += 1
            k = skip_space(code, skip_generics(code, k), newlines=False)
            if k < len(code) and code[k] == "(" and k in partner:
                params = parse_params(code[k + 1:partner[k]])
                result = short_owner
                if kind == "func":
                    arrow = re.match(r"[ \t]*(?:(?:async|throws|rethrows|reasync)(?:\([^)]*\))?[ \t]+)*->[ \t]*([^{\n]*)",
                                     code[partner[k] + 1:partner[k] + 300])
                    result = type_name(re.split(r"\bwhere\b", arrow.group(1))[0], short_owner) if arrow else None
                declarations.append(Decl(kind, name, short_owner, params, versions, module, origin, result))
        elif kind in ("var", "let"):
            named = NAME.match(code, end)
            if named:
                typed = re.match(r"\s*:\s*([^={\n]+)|\s*=\s*([A-Z]\w*)\s*(?:<[^<>]*>)?\s*\(", code[named.end():named.end() + 200])
                result = type_name(typed.group(1) or typed.group(2), short_owner) if typed else None
                declarations.append(Decl("var", named.group(1).strip("`"), short_owner, None, versions, module, origin, result))
        elif kind == "case":
            k = end
            while True:
                named = NAME.match(code, k)
                if not named or named.group(1) in ("let", "var"):
                    break
                k = skip_space(code, named.end(), newlines=False)
                params = None
                if k < len(code) and code[k] == "(" and k in partner:
                    params = parse_params(code[k + 1:partner[k]])
                    k = partner[k] + 1
                declarations.append(Decl("case", named.group(1).strip("`"), short_owner, params, versions, module, origin,
                                         short_owner))
                k = skip_space(code, k, newlines=False)
                if k < len(code) and code[k] == "=":
                    while k < len(code) and code[k] not in ",\n":
                        k += 1
                if k < len(code) and code[k] == ",":
                    k += 1
                    continue
                break
    if origin == "interface":  # underscored names are no API
        declarations = [d for d in declarations if not d.name.startswith("_")]
    return declarations, regions, inherits


# --- the index --------------------------------------------------------------------------------

class Index:
    """Declarations by name, and what each type inherits or conforms to: the interfaces' and
    the table's (shared), and a package's."""

    def __init__(self, declarations, inherits, package=(), package_inherits=()):
        self.base, self.base_inherits = declarations, inherits
        self.by_name, self.supers, self.memo = {}, {}, {}
        for declaration in list(declarations) + list(package):
            self.by_name.setdefault(declaration.name, []).append(declaration)
        for name, supers in list(inherits) + list(package_inherits):
            self.supers.setdefault(name, set()).update(supers)

    def with_package(self, package, inherits):
        return Index(self.base, self.base_inherits, package, inherits)

    def ancestors(self, name):
        """A type and everything it inherits from or conforms to, transitively."""
        if name not in self.memo:
            seen, queue = {name}, [name]
            while queue:
                for parent in self.supers.get(queue.pop(), ()):
                    if parent not in seen:
                        seen.add(parent)
                        queue.append(parent)
            self.memo[name] = seen
        return self.memo[name]

    def newer_type(self, name, floor):
        """Whether every type of that name is newer than the floor somewhere."""
        key = (name, tuple(sorted(floor.items())))
        if key not in self.memo:
            types = [d for d in self.by_name.get(name, ()) if d.kind == "type"]
            self.memo[key] = bool(types) and all(newer(d.versions, floor) for d in types)
        return self.memo[key]

    def interest(self, floor):
        """Names worth a look: those of declarations newer than a floor, and the types whose
        initializers are."""
        names = set()
        for name, declarations in self.by_name.items():
            for declaration in declarations:
                if newer(declaration.versions, floor):
                    names.add(name)
                    if declaration.kind == "init" and declaration.owner:
                        names.add(declaration.owner)
        return names


def newer(versions, floor):
    return any(versions.get(platform, ZERO) > floor[platform] and versions.get(platform) != NEVER
               for platform in SCAN_PLATFORMS)


def cache_dir():
    path = os.path.join(ROOT, ".build", "availability", "interfaces")
    os.makedirs(path, exist_ok=True)
    return path


def synthesized_interface(module, host):
    """Linux's binary-only module `module` as Swift declarations (swift-synthesize-interface)."""
    version = compiler_version()
    path = os.path.join(cache_dir(), module + ".swift")
    stamp = path + ".stamp"
    if os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == version:
        return open(path).read()
    result = run(["swift-synthesize-interface", "-module-name", module, "-target", host, "-o", path])
    if result.returncode != 0 or not os.path.exists(path):
        raise SystemExit("swift-synthesize-interface failed for %s: %s" % (module, result.stderr[-2000:]))
    with open(stamp, "w") as handle:
        handle.write(version)
    return open(path).read()


def standard_library_modules(library):
    """The modules with a .swiftinterface that carries Apple availability."""
    modules = []
    for entry in sorted(os.listdir(library)):
        if not entry.endswith(".swiftmodule"):
            continue
        module = entry[:-len(".swiftmodule")]
        if module in NOT_ON_APPLE:
            continue
        try:
            text = open(interface_path(library, module)).read()
        except SystemExit:
            continue
        if re.search(r"@available\((macOS|iOS|tvOS|watchOS)\b", text):
            modules.append((module, text))
    return modules


def build_index(library, host):
    declarations, inherits, counts = [], [], {}
    for module, text in standard_library_modules(library):
        code = apply_conditionals(clean_swift(text), first_branches)
        found, _, supers = parse_declarations(code, module, "interface")
        declarations += found
        inherits += supers
        counts[module] = found
    for module in FOUNDATION_MODULES + ["Dispatch"]:
        code = apply_conditionals(clean_swift(synthesized_interface(module, host)), first_branches)
        found, _, supers = parse_declarations(code, "Dispatch" if module == "Dispatch" else "Foundation", "interface")
        declarations += found
        inherits += supers
        counts[module] = found
    table = []
    for module, owner, declaration, versions, _ in FOUNDATION:
        if owner:
            text = "extension %s {\n  %s\n}\n" % (owner, declaration)
        else:
            text = declaration + " {}\n"
        found, _, _ = parse_declarations(clean_swift(text), module, "table")
        wanted = {platform: version_tuple(version) for platform, version in versions.items()}
        for item in found:
            if item.owner == owner:
                item.versions = wanted
                table.append(item)
    replaced = {item.key() for item in table}
    declarations = [item for item in declarations if item.key() not in replaced] + table
    counts["table"] = table
    return Index(declarations, inherits), counts


# --- the scan ---------------------------------------------------------------------------------

IDENTIFIER = re.compile(r"`?([A-Za-z_][A-Za-z0-9_]*)`?")
IMPORT = re.compile(r"^[ \t]*(?:@[\w]+(?:\([^)]*\))?[ \t]+)*import[ \t]+(?:(?:typealias|struct|class|enum|protocol|"
                    r"let|var|func)[ \t]+)?([A-Za-z_]\w*)", re.M)
DECLARING = {"func", "var", "let", "case", "struct", "class", "enum", "protocol", "actor", "typealias",
             "associatedtype", "import", "macro", "indirect"}
CONDITION = re.compile(r"#(un)?available\s*\(")


def visible_modules(imports):
    modules = set(IMPLICIT) | {"package"} | set(imports)
    if modules & set(FOUNDATION_MODULES):
        modules |= {"Foundation", "Dispatch"}
    if "OSLog" in modules:
        modules.add("os")
    return modules


def prepare(text):
    """A Swift file's code as the scan reads it: comments and strings blanked, and the #if
    branches no Apple platform compiles."""
    return apply_conditionals(clean_swift(text), apple_condition)


def next_block(code, partner, index):
    """The '{' that opens the block after a condition list starting at `index`."""
    while index < len(code):
        character = code[index]
        if character == "{":
            return index
        if character in "([":
            index = partner.get(index, index) + 1
            continue
        if character in "};":
            return None
        index += 1
    return None


def statement_keyword(code, partner, index):
    """The if, guard or while whose condition list holds `index`."""
    index -= 1
    while index >= 0:
        character = code[index]
        if character in ")]" and index in partner:
            index = partner[index] - 1
            continue
        if character in "{};":
            return None
        if is_word(character):
            start, word = word_before(code, index + 1)
            if word in ("if", "guard", "while"):
                return word
            index = start - 1
            continue
        index -= 1
    return None


def else_branch(code, partner, index):
    """The else branch (a block, or an if chain) after `index`: (start, end), or None."""
    k = skip_space(code, index)
    if not re.match(r"else\b", code[k:k + 5]):
        return None
    k = skip_space(code, k + 4)
    if k < len(code) and code[k] == "{":
        return (k, partner.get(k, len(code)))
    start, end = k, None
    while re.match(r"if\b", code[k:k + 3]):
        block = next_block(code, partner, k + 2)
        if block is None:
            return None
        end = partner.get(block, len(code))
        k = skip_space(code, end + 1)
        if not re.match(r"else\b", code[k:k + 5]):
            break
        k = skip_space(code, k + 4)
        if k < len(code) and code[k] == "{":
            end = partner.get(k, len(code))
            break
    return (start, end) if end is not None else None


def condition_regions(code, partner):
    """The scopes #available and #unavailable conditions cover: (start, end, versions)."""
    opens = sorted(index for index in partner if code[index] == "{")
    regions = []
    for match in CONDITION.finditer(code):
        opening = match.end() - 1
        if opening not in partner:
            continue
        versions = parse_available(code[opening + 1:partner[opening]])
        negative = bool(match.group(1))
        keyword = statement_keyword(code, partner, match.start())
        block = next_block(code, partner, partner[opening] + 1)
        if block is None or block not in partner:
            continue
        close = partner[block]
        if keyword == "guard":
            if negative:
                regions.append((block, close, versions))
            else:
                around = [o for o in opens if o < match.start() and partner[o] > close]
                end = partner[max(around)] if around else len(code)
                regions.append((close + 1, end, versions))
        elif not negative:
            regions.append((block, close, versions))
        else:
            branch = else_branch(code, partner, close + 1)
            if branch:
                regions.append((branch[0], branch[1], versions))
    return regions


def in_condition(code, partner, index):
    """Whether `index` is in the condition of an if, while, guard, for or switch, outside any
    brackets: there a '{' opens the body, never a trailing closure."""
    index -= 1
    while index >= 0:
        character = code[index]
        if character in ")]" and index in partner:
            index = partner[index] - 1
            continue
        if character in "([{};":
            return False
        if is_word(character):
            start, word = word_before(code, index + 1)
            if word in ("if", "while", "guard", "for", "switch"):
                return True
            index = start - 1
            continue
        index -= 1
    return False


def call_shape(code, partner, end):
    """How the name ending at `end` is used: ("call", labels, trailing closures),
    ("closure", [], trailing closures) for `name { }`, or ("ref", None, 0)."""
    condition = in_condition(code, partner, end)
    k = skip_generics(code, end)
    k = skip_space(code, k, newlines=False)
    if k >= len(code):
        return ("ref", None, 0)
    if code[k] == "(" and k in partner:
        labels = []
        inside = code[k + 1:partner[k]]
        if inside.strip():
            for argument in split_top(inside):
                label = re.match(r"\s*(`[^`]+`|[A-Za-z_]\w*)\s*:(?!:)", argument)
                labels.append(label.group(1).strip("`") if label and label.group(1) != "_" else None)
        return ("call", labels, 0 if condition else trailing_closures(code, partner, partner[k] + 1))
    if code[k] == "{" and not condition:
        return ("closure", [], trailing_closures(code, partner, k))
    return ("ref", None, 0)


def trailing_closures(code, partner, index):
    k = skip_space(code, index, newlines=False)
    if k >= len(code) or code[k] != "{" or k not in partner:
        return 0
    count, k = 1, partner[k] + 1
    while True:
        labelled = re.match(r"\s*[A-Za-z_]\w*\s*:\s*\{", code[k:k + 80])
        if not labelled:
            return count
        brace = k + labelled.end() - 1
        if brace not in partner:
            return count
        count, k = count + 1, partner[brace] + 1


def params_fit(params, labels, trailing):
    """Whether arguments with these labels (None: unlabelled), then `trailing` closures, can
    call a function with these parameters."""
    p = a = 0
    while a < len(labels):
        while p < len(params) and params[p][0] != labels[a]:
            if params[p][1] or params[p][2]:  # a defaulted or variadic parameter can be left out
                p += 1
                continue
            return False
        if p >= len(params):
            return False
        a += 1
        if params[p][2]:  # a variadic parameter takes the unlabelled arguments that follow
            while a < len(labels) and labels[a] is None:
                a += 1
        p += 1
    rest = params[p:]
    required = [param for param in rest if not param[1] and not param[2]]
    return len(required) <= trailing <= len(rest)


def judge(candidates, floor, index):
    """{platform: version} where every candidate is newer than the floor, and whether an older
    one masked a newer one somewhere (not counting members of types newer than the floor:
    only a value of such a type reaches them, and it is reported where it's named)."""
    needs, masked = {}, False
    for platform in SCAN_PLATFORMS:
        versions = [c.versions.get(platform, ZERO) for c in candidates if c.versions.get(platform) != NEVER]
        if not versions:
            continue
        if min(versions) > floor[platform]:
            needs[platform] = min(versions)
        elif any(c.versions.get(platform, ZERO) > floor[platform] and c.versions.get(platform) != NEVER
                 and not (c.owner and index.newer_type(c.owner, floor)) for c in candidates):
            masked = True
    return needs, masked


def shown(candidates, needs):
    platform = next(iter(needs))
    best = min((c for c in candidates if c.versions.get(platform, ZERO) >= needs[platform]),
               key=lambda c: c.versions.get(platform, ZERO))
    return best.shown


ANNOTATION = re.compile(r"\b([a-z_]\w*)\s*:\s*((?:(?:inout|borrowing|consuming|sending|any|some)\s+)?"
                        r"[A-Z]\w*(?:\.[A-Z]\w*)*)\s*(?:<[^<>()\n]*>)?\s*[?!]?(?=\s*[,)={;\n])")
BINDING = re.compile(r"\b(?:let|var)\s+([A-Za-z_]\w*)\s*(?::[^=\n]*)?=\s*(?:(?:try[?!]?|await)\s+)*")
BOUND = re.compile(r"\b(?:let|var)\s+([A-Za-z_]\w*)|\bfor\s+(?:case\s+(?:let|var)\s+)?([A-Za-z_]\w*)\s+in\b|"
                   r"[(,]\s*(?:[A-Za-z_]\w*\s+)?([A-Za-z_]\w*)\s*:(?!:)|\{\s*\(?\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)"
                   r"\s*\)?\s+in\b|\b(?:let|var)\s*\(([^()]*)\)")
POSTFIX = re.compile(r"[A-Za-z_]\w*(?:\s*<[^<>]*>)?(?:\s*(?:\(\)|\[\]|[?!]|\.\s*[A-Za-z_]\w*|<[^<>]*>))*\s*$")


class Types:
    """What little of a file's types text can tell: names bound with an annotation
    (`handle: FileHandle`) or an initial value whose type is known (`= URL(...)`,
    `= session.dataTask(with: request)`), and the type of a postfix expression."""

    def __init__(self, code, partner, index):
        self.code, self.partner, self.index = code, partner, index
        self.bindings = {}
        for match in ANNOTATION.finditer(code):
            name = type_name(match.group(2))
            if name:
                self.bindings.setdefault(match.group(1), set()).add(name)
        for _ in range(2):
            for match in BINDING.finditer(code):
                end = self.expression_end(match.end())
                found = self.expression(end) if end is not None else None
                if found and found[0] == "value":
                    self.bindings.setdefault(match.group(1), set()).update(found[1])
        self.bound = set()
        for match in BOUND.finditer(code):
            for group in match.groups():
                if group:
                    self.bound.update(word for word in re.findall(r"[A-Za-z_]\w*", group) if word != "_")

    def expression_end(self, index):
        """Where the expression starting at `index` ends, if it is a plain postfix chain."""
        code, k = self.code, index
        squeezed = []
        while k < len(code) and code[k] not in "\n;}":
            if code[k] in "([{" and k in self.partner:
                if code[k] == "{":
                    return None
                squeezed.append("()" if code[k] == "(" else "[]")
                k = self.partner[k] + 1
                continue
            squeezed.append(code[k])
            k += 1
        return k if POSTFIX.match("".join(squeezed).strip() or "?") and "".join(squeezed).strip() else None

    def members(self, owners, name):
        around = set()
        for owner in owners:
            around |= self.index.ancestors(owner)
        return [d for d in self.index.by_name.get(name, ()) if d.owner in around]

    def expression(self, end, depth=0):
        """("type" | "value", {possible types}) or ("module", {M}) for the postfix expression
        ending before `end`, or None."""
        code = self.code
        j = skip_space_back(code, end - 1)
        if j < 0 or depth > 8:
            return None
        character = code[j]
        if character in "?!":
            return self.expression(j, depth + 1)
        if character == ")" and j in self.partner:
            callee = self.partner[j]
            if code[callee - 1:callee] == ">":  # explicit generic arguments
                k = callee - 1
                while k > 0 and code[k] != "<" and code[k] not in "\n;{}":
                    k -= 1
                callee = k if code[k] == "<" else callee
            before = skip_space_back(code, callee - 1)
            if before < 0 or not is_word(code[before]):
                return None
            start, word = word_before(code, before + 1)
            dot = skip_space_back(code, start - 1)
            if dot >= 0 and code[dot] == "." and code[dot - 1:dot] != ".":
                base = self.expression(dot, depth + 1)
                if not base or base[0] == "module":
                    return ("value", {word}) if base and word[:1].isupper() else None
                if word == "init":
                    return ("value", base[1])
                results = {d.result for d in self.members(base[1], word) if d.kind in ("func", "case") and d.result}
                return ("value", results) if results else None
            if word[:1].isupper():
                return ("value", {word})
            return None
        if not is_word(character):
            return None
        start, word = word_before(code, j + 1)
        dot = skip_space_back(code, start - 1)
        if dot >= 0 and code[dot] == "." and code[dot - 1:dot] != ".":
            base = self.expression(dot, depth + 1)
            if not base:
                return None
            if base[0] == "module":
                return ("type", {word}) if word[:1].isupper() else None
            if word[:1].isupper() and base[0] == "type":
                return ("type", {word})
            results = {d.result for d in self.members(base[1], word) if d.kind in ("var", "case") and d.result}
            return ("value", results) if results else None
        if word in MODULE_NAMES:
            return ("module", {word})
        if word in ("self", "super", "Self"):
            return None
        if word[:1].isupper():
            return ("type", {word})
        types = self.bindings.get(word)
        return ("value", set(types)) if types else None


def scan_code(code, index, floor, modules, interest):
    """The uses of APIs newer than the floor in a prepared file: [(offset, api, needs,
    uncovered, masked)]."""
    partner = bracket_matches(code)
    _, available, _ = parse_declarations(code, "package", "package")
    regions = available + condition_regions(code, partner)
    types = Types(code, partner, index)
    uses = []
    for match in IDENTIFIER.finditer(code):
        name = match.group(1)
        if name not in interest:
            continue
        start, end = match.start(), match.end()
        if start > 0 and (is_word(code[start - 1]) or code[start - 1] in "$#@"):
            continue
        j = skip_space_back(code, start - 1)
        previous = code[j] if j >= 0 else ""
        before_word = word_before(code, j + 1)[1] if previous and is_word(previous) else None
        if before_word in DECLARING:
            continue
        k = skip_space(code, end, newlines=False)
        if k < len(code) and code[k] == ":" and code[k + 1:k + 2] != ":":
            if previous and previous in "(,":
                continue  # an argument label, or a parameter's
            if before_word:
                w = skip_space_back(code, word_before(code, j + 1)[0] - 1)
                if w >= 0 and code[w] in "(,":
                    continue  # a parameter's inner name
        member = previous == "." and not (j > 0 and code[j - 1] == ".")
        base = types.expression(j) if member else None
        if base and base[0] == "module":
            member, base = False, None
        shape = call_shape(code, partner, end)
        declared = [d for d in index.by_name.get(name, ()) if d.module in modules]

        def fits(d):
            if d.kind == "type":
                return True
            if d.kind == "var" or (d.kind == "case" and d.params is None):
                return shape[0] != "call"
            if shape[0] == "ref":
                return True
            return params_fit(d.params, shape[1], shape[2])

        if member:
            candidates = [d for d in declared if (d.kind == "init") == (name == "init") and d.owner is not None]
            if base:
                owners = set()
                for possible in base[1]:
                    owners |= index.ancestors(possible)
                restricted = [d for d in candidates if d.owner in owners]
                if restricted:
                    candidates = restricted
        else:
            # Types, free functions, globals; and the package's members, called on an implicit
            # self (unless a local of that name is about).
            candidates = [d for d in declared if d.kind != "init" and (
                d.owner is None or (d.origin == "package" and name not in types.bound))]
        candidates = [d for d in candidates if fits(d)]
        if not candidates:
            continue
        needs, masked = judge(candidates, floor, index)
        api = shown(candidates, needs) if needs else None
        types_named = [d for d in candidates if d.kind == "type"]
        if not needs and types_named and not member and shape[0] == "call":
            # An older type: its initializer, as called (`-> Never {` is no call).
            inits = [d for d in index.by_name.get("init", ()) if d.module in modules and d.owner == name
                     and params_fit(d.params, shape[1], shape[2])]
            if inits:
                needs, masked_init = judge(inits, floor, index)
                masked = masked or masked_init
                api = shown(inits, needs) if needs else None
        if not needs:
            if masked:
                uses.append((start, name, {}, {}, True))
            continue
        if member and all(d.owner and index.newer_type(d.owner, floor) for d in candidates) and (
                not base or all(index.newer_type(possible, floor) for possible in base[1])):
            continue  # a member of a newer type, on a value of it: reported where that is named
        cover = {}
        for low, high, versions in regions:
            if low <= start <= high:
                cover = merge(cover, versions)
        uncovered = {platform: version for platform, version in needs.items() if cover.get(platform, ZERO) < version}
        uses.append((start, api, needs, uncovered, False))
    return uses


def line_of(code, offset):
    return code.count("\n", 0, offset) + 1


def package_declarations(paths):
    declarations, inherits = [], []
    for path in paths:
        code = prepare(open(path).read())
        found, _, supers = parse_declarations(code, "package", "package")
        declarations += found
        inherits += supers
    return declarations, inherits


def scan_files(paths, index, floor):
    """Findings for a target's files: [(path, line, api, needs, uncovered, masked)]."""
    prepared = {path: prepare(open(path).read()) for path in paths}
    modules = visible_modules(name for code in prepared.values() for name in IMPORT.findall(code))
    interest = index.interest(floor)
    findings = []
    for path, code in prepared.items():
        for offset, api, needs, uncovered, masked in scan_code(code, index, floor, modules, interest):
            findings.append((path, line_of(code, offset), api, needs, uncovered, masked))
    return findings


def swift_files(directory):
    return sorted(os.path.join(folder, name) for folder, _, names in os.walk(os.path.join(ROOT, directory))
                  for name in names if name.endswith(".swift"))


def scanned_targets(package):
    """The Apple-compiled targets with Swift sources, but the core (type-checked instead)."""
    targets = []
    for target in package.get("targets", []):
        if target["type"] not in ("regular", "executable", "test") or target["name"] == "ImageProbe":
            continue
        path = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])
        if swift_files(path):
            targets.append(path)
    return targets


def describe(needs):
    return ", ".join("%s %s" % (platform, version_text(version)) for platform, version in needs.items())


# --- the self-test ----------------------------------------------------------------------------

# Each line marked `// EXPECT` has a use the scan must report, each marked `// OK` a use it must
# find covered by its guard; no other line may be reported.
PROBE = r'''import Foundation
import Synchronization
#if canImport(os)
import os
#endif

// Mentions in comments and strings are no uses: Date.now, Mutex(0), url.path()
let text = "Date.now, Mutex(0), ContinuousClock()"

struct Probe {
    func unguarded(url: URL, base: URL, session: URLSession, request: URLRequest, handle: FileHandle,
                   task: URLSessionTask) async throws {
        let mutex = Mutex(0)                                            // EXPECT
        let path = url.path()                                           // EXPECT
        print("\(url.path())")                                          // EXPECT
        let now = Date.now                                              // EXPECT
        await withDiscardingTaskGroup { group in                        // EXPECT
            group.addTask {}
        }
        try await withThrowingDiscardingTaskGroup(returning: Void.self) { group in   // EXPECT
            group.addTask {}
        }
        let nested = base.appending(                                    // EXPECT
            path: "a/b")
        try await Task.sleep(                                           // EXPECT
            for: .milliseconds(5)
        )
        let clock = ContinuousClock()                                   // EXPECT
        let suspending: SuspendingClock? = nil                          // EXPECT
        let span: Duration = .seconds(1)                                // EXPECT
        let home = URL.homeDirectory                                    // EXPECT
        let temporary = URL.temporaryDirectory                          // EXPECT
        let file = URL(filePath: "/tmp/x")                              // EXPECT
        let child = base
            .appending(component: "c")                                  // EXPECT
        let stamp = Date().formatted()                                  // EXPECT
        let (data, _) = try await session.data(for: request, delegate: nil)   // EXPECT
        let (bytes, _) = try await session.bytes(for: request)          // EXPECT
        let (saved, _) = try await session.download(for: request)       // EXPECT
        task.delegate = nil                                             // EXPECT
        let chunk = try handle.read(upToCount: 4)                       // EXPECT
        let rest = try handle.readToEnd()                               // EXPECT
        let size = try handle.seekToEnd()                               // EXPECT
        let at = try handle.offset()                                    // EXPECT
        try handle.write(contentsOf: Data())                            // EXPECT
        let unfair = OSAllocatedUnfairLock()                            // EXPECT
        let atomic = Atomic<Int>(0)                                     // EXPECT
        let regex = try Regex("a+")                                     // EXPECT
        let saver = ProcessInfo.processInfo.isLowPowerModeEnabled       // EXPECT
        let made = newerHelper()                                        // EXPECT
        let raw = #"at \#(URL.homeDirectory)"#                          // EXPECT
        let qualified = Swift.Duration.seconds(1)                       // EXPECT
        let table: Synchronization.Mutex<[String: Int]>? = nil          // EXPECT
        let implicit: URL = .init(filePath: "x")                        // EXPECT
        let reference = URL.init(filePath:)                             // EXPECT
        try await Task.sleep(until: .now + .seconds(1), clock: .continuous)   // EXPECT
        let made2 = [1, 2].map { _ in
            URL(filePath: "/x")                                         // EXPECT
        }
        #if os(macOS)
        _ = URL(filePath: "/mac")                                       // EXPECT
        #endif
        #if canImport(FoundationNetworking)
        _ = URL(filePath: "/linux")
        #endif
        _ = (mutex, path, now, nested, clock, suspending, span, home, temporary, file, child, stamp, data,
             bytes, saved, chunk, rest, size, at, unfair, atomic, regex, saver, made, raw, qualified, table,
             implicit, reference, made2)
    }

    func guarded(url: URL, handle: FileHandle) async throws {
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            _ = url.path()                                              // OK
            _ = URL(filePath: "/tmp")                                   // OK
        } else {
            _ = url.path(percentEncoded: true)                          // EXPECT
        }
        if #available(macOS 13, *) {
            _ = URL.homeDirectory                                       // EXPECT
        }
        if #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) {
            _ = Date.now                                                // OK
            if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
                _ = ContinuousClock()                                   // OK
            }
            _ = URL(filePath: "/a")                                     // EXPECT
        }
        if url.isFileURL, #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *), let scheme = url.scheme {
            _ = URL(filePath: scheme)                                   // OK
        } else if #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) {
            _ = Date.now                                                // OK
            _ = URL(filePath: "/d")                                     // EXPECT
        }
        if #unavailable(macOS 13, iOS 16, tvOS 16, watchOS 9) {
            _ = URL(filePath: "/b")                                     // EXPECT
        } else {
            _ = URL(filePath: "/c")                                     // OK
        }
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else {
            _ = Mutex(1)                                                // EXPECT
            return
        }
        _ = Mutex(2)                                                    // OK
        let stream = AsyncStream<Int>.makeStream()
        _ = try handle.close()
        _ = stream
    }

    func late() {
        guard #unavailable(macOS 12, iOS 15, tvOS 15, watchOS 8) else {
            _ = Date.now                                                // OK
            return
        }
        _ = Date.now                                                    // EXPECT
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func annotated(base: URL) -> Duration {                             // OK
        let clock = ContinuousClock()                                   // OK
        _ = base.appending(path: "x")                                   // OK
        return clock.now - clock.now
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    var interval: Duration { .seconds(2) }                              // OK

    #if os(Linux)
    let linuxOnly = Mutex(3)
    #endif
}

extension Duration {}                                                   // EXPECT
struct ProbeClock: Clock {                                              // EXPECT
    typealias Instant = ContinuousClock.Instant                         // EXPECT
}

@available(*, unavailable)
func unavailableHere() { _ = URL(filePath: "/n") }                      // OK

@available(macOS, introduced: 13.0)
func macOnly(url: URL) { _ = url.path() }                              // EXPECT

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func newerHelper() -> Int { 1 }

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
struct Guarded {
    let lock = Mutex(0)                                                 // OK
    let atomic = Atomic<Int>(0)                                         // OK
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Probe {
    func more() async throws {
        try await Task.sleep(for: .seconds(1))                          // OK
        _ = SuspendingClock()                                           // OK
    }
}
'''


def self_test(index, floor):
    """Scans PROBE: (expected, caught, [missed], guarded, [guarded uses not seen as covered],
    [false alarms])."""
    directory = tempfile.mkdtemp(prefix="availability-probe-")
    path = os.path.join(directory, "Probe.swift")
    with open(path, "w") as handle:
        handle.write(PROBE)
    lines = PROBE.split("\n")
    expected = {n + 1 for n, line in enumerate(lines) if line.rstrip().endswith("// EXPECT")}
    guarded = {n + 1 for n, line in enumerate(lines) if line.rstrip().endswith("// OK")}
    findings = scan_files([path], index.with_package(*package_declarations([path])), floor)
    os.remove(path)
    os.rmdir(directory)
    reported, covered = {}, set()
    for _, line, api, needs, uncovered, _ in findings:
        if uncovered:
            reported.setdefault(line, []).append("%s needs %s" % (api, describe(uncovered)))
        elif needs:
            covered.add(line)
    missed = sorted(expected - set(reported))
    unseen = sorted(guarded - covered)
    alarms = sorted(set(reported) - expected)
    text = lambda line: lines[line - 1].split("//")[0].strip()
    return (len(expected), len(expected) - len(missed), [(line, text(line)) for line in missed], len(guarded),
            [(line, text(line)) for line in unseen], [(line, text(line), reported[line]) for line in alarms])


def run_self_test(index, floor):
    expected, caught, missed, guarded, unseen, alarms = self_test(index, floor)
    print("scan self-test: %d of %d unguarded uses caught, %d of %d guarded ones seen as covered, %d false alarms"
          % (caught, expected, guarded - len(unseen), guarded, len(alarms)))
    for line, text in missed:
        print("  MISSED probe line %d: %s" % (line, text))
    for line, text in unseen:
        print("  NOT SEEN AS GUARDED probe line %d: %s" % (line, text))
    for line, text, why in alarms:
        print("  FALSE ALARM probe line %d: %s (%s)" % (line, text, "; ".join(why)))
    return not missed and not unseen and not alarms


def main():
    listing = "--list" in sys.argv
    ambiguous_listing = "--ambiguous" in sys.argv
    only_self_test = "--self-test" in sys.argv
    package = package_description()
    declared = floors(package)
    missing = [p for p in PLATFORMS if p not in declared]
    if missing:
        raise SystemExit("Package.swift declares no floor for: " + ", ".join(missing))
    floor = {PLATFORMS[p][0]: version_tuple(declared[p]) for p in PLATFORMS}
    library, shims, host = toolchain_paths()
    index, counts = build_index(library, host)
    if only_self_test:
        sys.exit(0 if run_self_test(index, floor) else 1)
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
    # Targets that import nothing but the core and the standard library: type-checked with the
    # core as one module (a module of their own would need the core's emitted module, which the
    # rebuilt standard library's artefacts prevent).
    targets = scanned_targets(package)
    for directory in targets:
        files = swift_files(directory)
        imports = {name for path in files for name in IMPORT.findall(prepare(open(path).read()))}
        if not imports <= {"ImageProbe"} | set(IMPLICIT):
            continue
        print("== %s (the standard library and the core only), type-checked with the core as one module" % directory)
        for platform, (name, pattern, lower) in PLATFORMS.items():
            modules = standard_library_for(pattern.format(lower), library, shims)
            at_floor, others, _ = typecheck(pattern.format(declared[platform]), modules, shims, core + files)
            mine = [f for f in at_floor if f[0].startswith(directory + "/")]
            trouble = [o for o in others if o.startswith(directory + "/")]
            print("%-8s floor %-6s %d above the floor without @available%s"
                  % (name, declared[platform], len(mine),
                     "; %d other errors: not checked this way (scanned below)" % len(trouble) if trouble else ""))
            for where, api, _, version in mine:
                print("  FAIL %s: %s needs %s %s" % (where, api, name, version))
                failed = True
            if listing:
                for other in trouble:
                    print("    %s" % other)
    print("== the other Apple-compiled targets, scanned for uses of APIs newer than the floors")
    newer_counts = {module: sum(1 for d in found if newer(d.versions, floor)) for module, found in counts.items()}
    stdlib = ", ".join("%s %d" % (m, c) for m, c in newer_counts.items()
                       if m not in FOUNDATION_MODULES + ["Dispatch", "table"] and c)
    foundation = ", ".join("%s %d" % (m, c) for m, c in newer_counts.items() if m in FOUNDATION_MODULES + ["Dispatch"] and c)
    print("   index of APIs newer than the floors: standard library (%s); Linux's Foundation, synthesized (%s);"
          " Apple's documentation, FOUNDATION %d" % (stdlib, foundation, newer_counts["table"]))
    if not run_self_test(index, floor):
        failed = True
    everything = swift_files("Sources") + swift_files("Tests") + swift_files("Fuzz") + swift_files("Benchmarks")
    own, own_inherits = package_declarations(everything)
    print("   (%d of the package's own declarations, %d of them with @available above a floor)"
          % (len(own), sum(1 for d in own if newer(d.versions, floor))))
    index = index.with_package(own, own_inherits)
    for directory in targets:
        findings = scan_files(swift_files(directory), index, floor)
        uses = [f for f in findings if f[3]]
        unguarded = [f for f in uses if f[4]]
        ambiguous = [f for f in findings if f[5]]
        print("%-36s %d uses above a floor, %d without @available%s"
              % (directory, len(uses), len(unguarded),
                 "; %d ambiguous (--ambiguous lists them)" % len(ambiguous) if listing or ambiguous_listing else ""))
        for path, line, api, needs, uncovered, masked in findings:
            where = "%s:%d" % (os.path.relpath(path, ROOT), line)
            if uncovered:
                covered = {p: v for p, v in needs.items() if p not in uncovered}
                print("  FAIL %s: %s needs %s%s" % (where, api, describe(uncovered),
                                                    " (%s covered)" % describe(covered) if covered else ""))
            elif needs and listing:
                print("  ok   %s: %s needs %s" % (where, api, describe(needs)))
            elif masked and ambiguous_listing:
                print("  ??   %s: %s: an older declaration of that name may be the one called" % (where, api))
        failed = failed or bool(unguarded)
    if failed:
        print("availability: FAILED")
        sys.exit(1)
    print("availability: ok")


if __name__ == "__main__":
    main()
