import Foundation
import ImageProbe
import ImageProbeFixtures
import ImageProbeFoundation
import Testing

/// A scratch directory removed after the test.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let directory = NSTemporaryDirectory() + "imageprobe-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try body(directory)
}

@Suite struct FileProbeTests {
    @Test func aPathAURLAndAFileHandleGiveTheSameAnswer() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/photo.jpg"
            let exif = TIFFBuilder(entries: [.orientation(6)]).build()
            try Data(JPEGBuilder.image(before: JPEGBuilder.exif(exif), width: 4032, height: 3024).bytes).write(to: URL(fileURLWithPath: path))
            let byPath = try ImageInfo(contentsOfFile: path)
            let byURL = try ImageInfo(contentsOf: URL(fileURLWithPath: path))
            let handle = try #require(FileHandle(forReadingAtPath: path))
            defer { try? handle.close() }
            let byHandle = try ImageInfo(fileHandle: handle)
            #expect(byPath.size == [4032, 3024])
            #expect(byPath.orientation == .rotate90Clockwise)
            #expect(byURL == byPath && byHandle == byPath)
        }
    }

    @Test func longSkipsAreJumpedNotRead() throws {
        try withTemporaryDirectory { directory in
            // A HEIF whose meta comes after a 1 MiB mdat: one skip, which lseek jumps.
            let meta = ISOBMFFBuilder.meta(primary: 1, items: [ISOBMFFBuilder.Item(id: 1, type: "hvc1", properties: [1])],
                                           properties: [.ispe(width: 64, height: 32)])
            let bytes = ISOBMFFBuilder.file(major: "heic", compatible: ["mif1"], before: ISOBMFFBuilder.box("mdat", [UInt8](repeating: 7, count: 1 << 20)),
                                            meta: meta, after: [])
            let path = directory + "/late-meta.heic"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try FileProber().probe(path: path)
            #expect(result.info?.size == [64, 32])
            #expect(result.bytesSkipped > 900_000)
            #expect(result.bytesRead < 70_000)
            // Without seeking, the same answer and byte total, all of it read.
            let read = try FileProber(seeks: false).probe(path: path)
            #expect(read.status == result.status)
            #expect(read.bytesSkipped == 0)
            #expect(read.bytesRead == result.bytesRead + result.bytesSkipped)
            // Any chunk size gives the same answer and counts.
            for size in [1, 7, 4096] {
                let chunked = try FileProber(chunkSize: size).probe(path: path)
                #expect(chunked.status == result.status && chunked.bytesRead == result.bytesRead && chunked.bytesSkipped == result.bytesSkipped)
            }
        }
    }

    @Test func failuresSayWhichKind() throws {
        try withTemporaryDirectory { directory in
            #expect(throws: FileError.self) { try ImageInfo(contentsOfFile: directory + "/missing.png") }
            do {
                _ = try ImageInfo(contentsOfFile: directory)
                Issue.record("a directory was probed")
            } catch let error as FileError {
                #expect(error.code == .isADirectory)
                #expect(error.path == directory)
            }
            let text = directory + "/notes.txt"
            try Data("hello, world\n".utf8).write(to: URL(fileURLWithPath: text))
            do {
                _ = try ImageInfo(contentsOfFile: text)
                Issue.record("a text file was probed as an image")
            } catch let failure as ScanFailure {
                #expect(failure.code == .unknownFormat)
                #expect(failure.code.name == "unknownFormat")
            }
            let fifo = directory + "/fifo"
            #expect(mkfifo(fifo, 0o600) == 0)
            do {
                _ = try ImageInfo(contentsOfFile: fifo)  // must not block waiting for a writer
                Issue.record("a FIFO was probed")
            } catch let error as FileError {
                #expect(error.code == .notARegularFile)
            }
            #expect(throws: FileError.self) { try ImageInfo(contentsOf: URL(string: "https://example.com/a.png")!) }
        }
    }

    @Test func aTruncatedFileGivesAPartialAnswer() throws {
        try withTemporaryDirectory { directory in
            let bytes = PNGBuilder.image(width: 30, height: 20)
            let path = directory + "/cut.png"
            try Data(bytes.prefix(40)).write(to: URL(fileURLWithPath: path))
            let info = try ImageInfo(contentsOfFile: path)
            #expect(info.size == [30, 20])
            #expect(info.isPartial)
        }
    }

    @Test func dataIsFedWithoutCopying() {
        let bytes = WebPBuilder.lossless(width: 300, height: 200, alpha: true)
        var scanner = HeaderScanner()
        let status = scanner.feed(Data(bytes))
        guard case .done(let info) = status else {
            Issue.record("expected done, got \(status)")
            return
        }
        #expect(info.size == [300, 200])
        // Split across two feeds, byte by byte: the same answer.
        var dripped = HeaderScanner()
        var last = dripped.status
        for byte in bytes where !last.isTerminal { last = dripped.feed(Data([byte])) }
        #expect(last == status)
    }

    @Test func namesAndMessagesAreStrings() {
        let name: String = ImageFormat.heif.name
        let mime: String = ImageFormat.heif.mimeType
        let message: String = ScanFailure(.truncated).message
        #expect(name == "heif" && mime == "image/heif" && !message.isEmpty)
    }
}

extension ImageInfo {
    var size: [Int] { [width, height] }
}
