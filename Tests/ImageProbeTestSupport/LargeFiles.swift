import Foundation
import ImageProbe
import ImageProbeFixtures

/// The large images the network tests serve, built here (the TIFF sparse, so its 100 MB cost
/// no disk), with the answers their parameters imply.
package struct LargeFile: Sendable, CustomStringConvertible {
    package var name: String
    package var format: ImageFormat
    package var width: Int
    package var height: Int
    package var orientation: Orientation?
    package var size: Int

    package var description: String { name }

    /// The files most network tests probe, one per way of reaching the answer.
    package static let probed = ["big.jpg", "sparse.tif", "mdat-first.heic", "animated-exif-last.webp"]

    /// Writes every file into `directory`.
    package static func writeAll(into directory: URL) throws -> [LargeFile] {
        try [jpeg(directory), tiff(directory), heif(directory), webp(directory), png(directory), truncatedJPEG(directory), gibibytePNG(directory)]
    }

    /// 5 MB: two 64 KiB ICC-style APP2 segments between the Exif block and the frame header,
    /// as cameras write them, then 5 MB of entropy-coded data.
    private static func jpeg(_ directory: URL) throws -> LargeFile {
        var bytes = jpegHeader(orientation: 6, width: 4000, height: 3000)
        bytes += JPEGBuilder.segment(0xC4, [0] + [UInt8](repeating: 0, count: 16))
        bytes += JPEGBuilder.segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0])
        bytes += (0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) }  // never 0xFF: no markers
        bytes += [0xFF, 0xD9]
        try Data(bytes).write(to: directory.appendingPathComponent("big.jpg"))
        return LargeFile(name: "big.jpg", format: .jpeg, width: 4000, height: 3000, orientation: .rotate90Clockwise, size: bytes.count)
    }

    package static func jpegHeader(orientation: Int, width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8] + JPEGBuilder.jfif
        bytes += JPEGBuilder.exif(TIFFBuilder(byteOrder: .bigEndian, entries: [.orientation(orientation)]).build())
        for part in 0..<2 {
            bytes += JPEGBuilder.segment(0xE2, ascii("ICC_PROFILE") + [0, UInt8(part + 1), 2] + [UInt8](repeating: 0x42, count: 65_519))
        }
        bytes += JPEGBuilder.quantizationTable
        bytes += JPEGBuilder.frame(width: width, height: height)
        return bytes
    }

    /// 100 MB, sparse: the header, then nothing until IFD0 at byte 100,000,000.
    private static func tiff(_ directory: URL) throws -> LargeFile {
        let ifdOffset = 100_000_000
        let layout = TIFFBuilder(entries: [.width(6000, type: TIFFEntry.long), .height(4000, type: TIFFEntry.long), .bitsPerSample(8), .orientation(8)])
        let built = layout.build()
        var header: [UInt8] = ascii("II")
        header.append16(42, .littleEndian)
        header.append32(ifdOffset, .littleEndian)
        let url = directory.appendingPathComponent("sparse.tif")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(header))
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(ifdOffset))
        // write(_:): write(contentsOf:) needs macOS 10.15.4, above the package's floor.
        handle.write(Data(built[layout.ifd0Offset...]))  // the directory has only inline values
        try handle.close()
        return LargeFile(name: "sparse.tif", format: .tiff, width: 6000, height: 4000, orientation: .rotate90Anticlockwise,
                         size: ifdOffset + built.count - layout.ifd0Offset)
    }

    /// ftyp, a 5 MB mdat, then meta: the primary item's ispe and an irot of 90° anticlockwise.
    private static func heif(_ directory: URL) throws -> LargeFile {
        typealias B = ISOBMFFBuilder
        let meta = B.meta(primary: 1, items: [B.Item(id: 1, type: "hvc1", properties: [1, 2, 3])],
                          properties: [.other("hvcC", [1, 2, 3]), .ispe(width: 4032, height: 3024), .irot(angle: 1)])
        let bytes = B.file(major: "heic", compatible: ["mif1", "heic"],
                           before: B.box("mdat", [UInt8](repeating: 0x5A, count: 5_000_000)), meta: meta, after: [])
        try Data(bytes).write(to: directory.appendingPathComponent("mdat-first.heic"))
        // irot 1 turns the stored 4032×3024 a quarter anticlockwise: EXIF orientation 8.
        return LargeFile(name: "mdat-first.heic", format: .heif, width: 4032, height: 3024, orientation: .rotate90Anticlockwise, size: bytes.count)
    }

    /// An animated WebP: VP8X, ANIM, five 1 MB frames, then the EXIF chunk (orientation 3).
    private static func webp(_ directory: URL) throws -> LargeFile {
        var chunks = WebPBuilder.chunk("ANIM", [0, 0, 0, 0, 0, 0])
        for _ in 0..<5 {
            var frame: [UInt8] = [0, 0, 0, 0, 0, 0]  // X, Y offsets / 2
            frame.append24(639, .littleEndian)
            frame.append24(479, .littleEndian)
            frame += [100, 0, 0, 0]  // duration 100 ms, flags
            frame += WebPBuilder.chunk("VP8L", [0x2F] + [UInt8](repeating: 0x33, count: 1_000_000))
            chunks += WebPBuilder.chunk("ANMF", frame)
        }
        chunks += WebPBuilder.chunk("EXIF", TIFFBuilder(entries: [.orientation(3)]).build())
        let bytes = WebPBuilder.extended(width: 640, height: 480, flags: WebPBuilder.flagAnimation | WebPBuilder.flagEXIF, chunks: chunks)
        try Data(bytes).write(to: directory.appendingPathComponent("animated-exif-last.webp"))
        return LargeFile(name: "animated-exif-last.webp", format: .webp, width: 640, height: 480, orientation: .rotate180, size: bytes.count)
    }

    /// 4.9 MB: IHDR, then 600 IDAT chunks of 8 KiB (as libpng writes them) and no eXIf. Full
    /// mode walks a PNG to IEND for a late eXIf, so over the network the search must stop at
    /// `maxMetadataRequests` with a partial answer rather than read the pixels through.
    private static func png(_ directory: URL) throws -> LargeFile {
        let idat = PNGBuilder.chunk("IDAT", (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var bytes = PNGBuilder.signature
        bytes += PNGBuilder.chunk("IHDR", [0, 0, 0x0B, 0xB8, 0, 0, 0x07, 0xD0, 8, 2, 0, 0, 0])  // 3000×2000 RGB
        bytes.reserveCapacity(bytes.count + 600 * idat.count + 12)
        for _ in 0..<600 { bytes += idat }
        bytes += PNGBuilder.chunk("IEND", [])
        try Data(bytes).write(to: directory.appendingPathComponent("idat-chunks.png"))
        return LargeFile(name: "idat-chunks.png", format: .png, width: 3000, height: 2000, orientation: nil, size: bytes.count)
    }

    /// 1 GiB, sparse: a 640×480 PNG whose one IDAT chunk is 1 GiB of zeros. Over a server that
    /// ignores Range, the answer is in the first 33 bytes, and the rest must not be downloaded.
    private static func gibibytePNG(_ directory: URL) throws -> LargeFile {
        let length = 1 << 30
        var head = PNGBuilder.signature
        head += PNGBuilder.chunk("IHDR", [0, 0, 0x02, 0x80, 0, 0, 0x01, 0xE0, 8, 2, 0, 0, 0])
        head.append32(length, .bigEndian)
        head += ascii("IDAT")
        let url = directory.appendingPathComponent("gibibyte.png")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(head))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(head.count + length + 4))
        try handle.close()
        return LargeFile(name: "gibibyte.png", format: .png, width: 640, height: 480, orientation: nil, size: head.count + length + 4)
    }

    /// A JPEG cut inside its second APP2 segment: the body ends before the frame header.
    private static func truncatedJPEG(_ directory: URL) throws -> LargeFile {
        let bytes = Array(jpegHeader(orientation: 1, width: 10, height: 10).prefix(100_000))
        try Data(bytes).write(to: directory.appendingPathComponent("truncated.jpg"))
        return LargeFile(name: "truncated.jpg", format: .jpeg, width: 0, height: 0, orientation: nil, size: bytes.count)
    }
}
