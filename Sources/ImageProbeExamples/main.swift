// Writes a folder of example images for trying `imageprobe`, made by the package's own byte
// builders: every header is complete and valid; the pixel data is a small placeholder (the
// scanner never reads it). Needs nothing but the toolchain, so the README's first command
// works on a fresh machine.
//
//     swift run imageprobe-examples DIR
import Foundation
import ImageProbeFixtures

let arguments = CommandLine.arguments.dropFirst()
guard let directory = arguments.first, arguments.count == 1 else {
    FileHandle.standardError.write(Data("usage: imageprobe-examples DIR\n".utf8))
    exit(2)
}

let exif6 = TIFFBuilder(entries: [.filler(tag: 0x10F), .orientation(6)]).build()
let gifBlocks: [AnimatedGIFBuilder.Block] = [
    .loop(3),
    .image(centiseconds: 1, x: 0, y: 0, width: 120, height: 80),
    .image(centiseconds: 10, x: 0, y: 0, width: 120, height: 80),
    .image(centiseconds: 20, x: 20, y: 10, width: 60, height: 40),
    .image(centiseconds: 0, x: 0, y: 0, width: 120, height: 80),
]
let apngFrames = [
    BuiltFrame(numerator: 1, denominator: 10, width: 400, height: 300),
    BuiltFrame(numerator: 1, denominator: 10, x: 50, y: 50, width: 300, height: 200),
    BuiltFrame(numerator: 1, denominator: 2, width: 400, height: 300),
]
let webpFrames = [
    BuiltFrame(numerator: 80, denominator: 1000, width: 320, height: 240),
    BuiltFrame(numerator: 80, denominator: 1000, x: 16, y: 16, width: 160, height: 120),
]
let heicGrid = ISOBMFFBuilder.phoneStyle(width: 4032, height: 3024)
let avifItem = ISOBMFFBuilder.meta(
    primary: 1, items: [ISOBMFFBuilder.Item(id: 1, type: "av01", properties: [1, 2])],
    properties: [.ispe(width: 1920, height: 1080), .pixi(bits: [10, 10, 10])])
let svg = SVGBuilder.document(prolog: SVGBuilder.fullProlog,
                              attributes: [SVGBuilder.namespace, ("width", "512"), ("height", "256"), ("viewBox", "0 0 512 256")])

let examples: [(String, [UInt8])] = [
    ("photo.jpg", JPEGBuilder.image(before: JPEGBuilder.exif(exif6) + JPEGBuilder.quantizationTable, width: 4032, height: 3024).bytes),
    ("progressive.jpg", JPEGBuilder.image(marker: 0xC2, width: 1600, height: 1200).bytes),
    ("image.png", PNGBuilder.image(width: 640, height: 480, colourType: 6)),
    ("animated.png", APNGBuilder.file(width: 400, height: 300, frames: apngFrames, plays: 0)),
    ("animation.gif", AnimatedGIFBuilder.file(width: 120, height: 80, blocks: gifBlocks)),
    ("animation.webp", AnimatedWebPBuilder.file(width: 320, height: 240, loop: 0, frames: webpFrames)),
    ("lossless.webp", WebPBuilder.lossless(width: 1024, height: 768, alpha: true)),
    ("bitmap.bmp", BMPBuilder.image(headerSize: 124, width: 800, height: -600).bytes),
    ("scan.tif", TIFFBuilder(entries: [.width(2480), .height(3508), .bitsPerSample(8), .orientation(1)]).build()),
    ("phone.heic", heicGrid),
    ("image.avif", ISOBMFFBuilder.file(major: "avif", compatible: ["avif", "mif1", "miaf"], meta: avifItem)),
    ("image.jxl", JXLBuilder.container([.whole(JXLBuilder.codestream(width: 2048, height: 1536, metadata: .orientation(1)).bytes)]).bytes),
    ("drawing.svg", svg.bytes),
]

do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, bytes) in examples {
        try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }
    print("wrote \(examples.count) example images to \(directory)")
} catch {
    FileHandle.standardError.write(Data("imageprobe-examples: \(error)\n".utf8))
    exit(1)
}
