// swift-tools-version: 6.0
// A package that uses ImageProbe as an app or server would: by path here, by URL in yours.
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "ImageProbe", path: "../..")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [
            .product(name: "ImageProbe", package: "ImageProbe"),
            .product(name: "ImageProbeFoundation", package: "ImageProbe"),
            .product(name: "ImageProbeFetch", package: "ImageProbe"),
        ]),
    ]
)
