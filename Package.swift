// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ImageProbe",
    // The lowest floors the code needs: the async adapters need Swift concurrency (macOS 10.15,
    // iOS 13). APIs above these carry `@available`; Scripts/availability.py checks it in CI.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "ImageProbe", targets: ["ImageProbe"]),
        .library(name: "ImageProbeFoundation", targets: ["ImageProbeFoundation"]),
        .library(name: "ImageProbeFetch", targets: ["ImageProbeFetch"]),
        .executable(name: "imageprobe", targets: ["ImageProbeCLI"]),
    ],
    targets: [
        // The scanner. Standard library only: no Foundation, no Glibc, no existentials,
        // so it also builds in Embedded Swift (see .ci/run).
        // Registry/formats.tsv is the generator's input (Scripts/registry.py), not a resource.
        .target(name: "ImageProbe", exclude: ["Registry/formats.tsv"]),

        // Files and Foundation types: probe a path, URL or FileHandle (seeking), feed a Data.
        // Foundation is allowed here, never in the core; no networking, so an app that only
        // probes files doesn't link URLSession or libcurl.
        .target(name: "ImageProbeFoundation", dependencies: ["ImageProbe"]),

        // Sizes from URLs: Range requests, early stop, cache, timeouts. Foundation is allowed
        // here, never in the core. The HTTP stack is the platform's own: URLSession on Apple
        // platforms, libcurl on Linux (the library FoundationNetworking is built on, among
        // Swift's documented Linux prerequisites: libcurl4-openssl-dev).
        .target(
            name: "ImageProbeFetch",
            dependencies: [
                "ImageProbe",
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .target(name: "CCurlShim", condition: .when(platforms: [.linux])),
            ]
        ),
        // The system's libcurl, and C wrappers for its variadic setters (Swift can't call them).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .yum(["libcurl-devel"])]
        ),
        .target(name: "CCurlShim", dependencies: [.target(name: "CCurl", condition: .when(platforms: [.linux]))]),

        // The command-line tool. The target name differs from the library's only by more
        // than case, so the two source folders don't collide on case-insensitive disks.
        // The C interface: imageprobe.h (a header-only C target, so Swift sees its structs
        // laid out as C does) and its functions, defined in Swift over the core. Standard
        // library only: Scripts/build-c.sh builds it with the core in Embedded Swift into
        // libimageprobe.a, libimageprobe.so and imageprobe.wasm.
        .target(name: "CImageProbe"),
        .target(name: "ImageProbeC", dependencies: ["ImageProbe", "CImageProbe"]),

        .executableTarget(name: "ImageProbeCLI", dependencies: ["ImageProbe", "ImageProbeFoundation", "ImageProbeFetch", "FuzzerHooks"]),

        // Byte builders for every format and the chunking verifier. Shared by the tests,
        // the fuzzer's seed generator and the benchmarks; not a product.
        .target(name: "ImageProbeFixtures", dependencies: ["ImageProbe"]),

        // The libFuzzer harness (the scanner, ImageProbeFetch's response-head check). Built with
        // `swift build -Xswiftc -sanitize=fuzzer` it fuzzes (libFuzzer's flags and corpus
        // directories as arguments); built without, it runs its replay commands.
        .executableTarget(
            name: "ImageProbeFuzz",
            dependencies: ["ImageProbe", "ImageProbeFixtures", "ImageProbeFetch", "FuzzerHooks"],
            path: "Fuzz/Sources/ImageProbeFuzz"
        ),
        // libFuzzer's entry points as weak symbols: a default LLVMFuzzerTestOneInput, which the
        // fuzzer runtime that -sanitize=fuzzer links into every executable refers to, and
        // LLVMFuzzerRunDriver, null unless that runtime is there. Every executable links it,
        // so the whole package builds with the flag; it does nothing otherwise.
        .target(name: "FuzzerHooks", path: "Fuzz/Sources/FuzzerHooks"),

        // Writes example images with the byte builders, for the README's first command.
        .executableTarget(name: "imageprobe-examples", dependencies: ["ImageProbeFixtures", "FuzzerHooks"], path: "Sources/ImageProbeExamples"),

        // Throughput and allocation benchmarks.
        .executableTarget(
            name: "imageprobe-bench",
            dependencies: ["ImageProbe", "ImageProbeFetch", "ImageProbeFixtures", "MallocCounter", "FuzzerHooks"],
            path: "Benchmarks/Sources/ImageProbeBench"
        ),
        // Interposes malloc and friends (glibc) to count the benchmark's heap allocations.
        .target(name: "MallocCounter", path: "Benchmarks/Sources/MallocCounter"),

        .testTarget(name: "ImageProbeTests", dependencies: ["ImageProbe", "ImageProbeFixtures"]),
        .testTarget(name: "ImageProbeFoundationTests", dependencies: ["ImageProbeFoundation", "ImageProbeFixtures"]),
        // What the fetcher's and the command's tests share: nginx on loopback with the large files
        // it serves, timing and spawning on the APIs the Apple floors have. Not a test target, as
        // test targets can't import each other; it doesn't import Testing. Not a product.
        .target(
            name: "ImageProbeTestSupport",
            dependencies: ["ImageProbe", "ImageProbeFixtures"],
            path: "Tests/ImageProbeTestSupport"
        ),
        // The fetcher against real servers: nginx on loopback, hostile servers.
        .testTarget(name: "ImageProbeFetchTests", dependencies: ["ImageProbeFetch", "ImageProbeFixtures", "ImageProbeTestSupport"]),
        // The `imageprobe` command as a process: pipes, files, URLs over nginx, its peak memory.
        .testTarget(name: "ImageProbeCLITests", dependencies: ["ImageProbeCLI", "ImageProbeFixtures", "ImageProbeTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
