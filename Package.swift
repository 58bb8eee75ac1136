// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ImageProbe",
    products: [
        .library(name: "ImageProbe", targets: ["ImageProbe"]),
        .executable(name: "imageprobe", targets: ["ImageProbeCLI"]),
    ],
    targets: [
        // The scanner. Standard library only: no Foundation, no Glibc, no existentials,
        // so it also builds in Embedded Swift (see .ci/run).
        .target(name: "ImageProbe"),

        // The command-line tool. The target name differs from the library's only by more
        // than case, so the two source folders don't collide on case-insensitive disks.
        .executableTarget(name: "ImageProbeCLI", dependencies: ["ImageProbe"]),

        // Byte builders for every format and the chunking verifier. Shared by the tests,
        // the fuzzer's seed generator and the benchmarks; not a product.
        .target(name: "ImageProbeFixtures", dependencies: ["ImageProbe"]),

        // libFuzzer harness; its entry point only exists when built with -DFUZZING.
        .executableTarget(
            name: "ImageProbeFuzz",
            dependencies: ["ImageProbe", "ImageProbeFixtures"],
            path: "Fuzz/Sources/ImageProbeFuzz"
        ),

        // Throughput and allocation benchmarks.
        .executableTarget(
            name: "imageprobe-bench",
            dependencies: ["ImageProbe", "ImageProbeFixtures", "MallocCounter"],
            path: "Benchmarks/Sources/ImageProbeBench"
        ),
        // Interposes malloc and friends (glibc) to count the benchmark's heap allocations.
        .target(name: "MallocCounter", path: "Benchmarks/Sources/MallocCounter"),

        .testTarget(name: "ImageProbeTests", dependencies: ["ImageProbe", "ImageProbeFixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
