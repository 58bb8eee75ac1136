import Foundation
import ImageProbe
import ImageProbeFixtures

/// `imageprobe-bench pack FILE [--verbose INDEX]`: every input of a pack file (a sequence of
/// a 32-bit little-endian length and that many bytes) scanned in the three modes, whole, in
/// seeded random chunks and by a seeking reader, under seeded random limits: one line per
/// input, its index and a hash of the nine outcomes (`checkDescription` and the byte counts).
/// Two builds that print the same lines answered every input alike (Fuzz/differential.sh).
func differentialPack(_ arguments: [String]) {
    guard let path = arguments.first, let data = readFile(path) else {
        print("usage: imageprobe-bench pack FILE [--verbose INDEX]")
        exit(2)
    }
    let verbose = arguments.firstIndex(of: "--verbose").flatMap { Int(arguments[$0 + 1]) }
    var offset = 0
    var index = 0
    while offset + 4 <= data.count {
        let length = Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24
        offset += 4
        let input = Array(data[offset..<min(data.count, offset + length)])
        offset += length
        if verbose == nil || verbose == index {
            var hash: UInt64 = 14_695_981_039_346_656_037
            for line in outcomes(of: input, seed: UInt64(index)) {
                if verbose != nil { print(line) }
                for byte in line.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
            }
            if verbose == nil { print("\(index)\t\(String(hash, radix: 16))") }
        }
        index += 1
    }
}

private func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return bytes
}

/// The nine outcomes of one input: three modes, three ways of reading it.
private func outcomes(of bytes: [UInt8], seed: UInt64) -> [String] {
    var lines: [String] = []
    var random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
    for mode in [ScanOptions.Mode.full, .dimensionsOnly, .animation] {
        var options = ScanOptions(mode: mode)
        // Limits that sometimes bite: a small maxBytes, few entries, a shallow depth, a pixel
        // limit, the input's length known or not.
        switch random.next() % 8 {
        case 0: options.maxBytes = Int(random.next() % 4096)
        case 1: options.maxEntries = Int(random.next() % 8)
        case 2: options.maxDepth = Int(random.next() % 4)
        case 3: options.maxPixels = Int(random.next() % 100_000)
        case 4: options.maxWidth = Int(random.next() % 2000)
        default: break
        }
        if random.next() % 2 == 0 { options.inputLength = UInt64(bytes.count) }
        for delivery in ["whole", "random", "seek"] {
            var scanner = HeaderScanner(options: options)
            var status = scanner.status
            var chunkRandom = SeededRandom(seed: seed &+ UInt64(lines.count))
            var offset = 0
            var frames: UInt64 = 14_695_981_039_346_656_037
            func record(_ frame: FrameInfo) {
                for value in [UInt64(frame.index), UInt64(frame.delay * 1000), UInt64(frame.rectangle.x), UInt64(frame.rectangle.y),
                              UInt64(frame.rectangle.width), UInt64(frame.rectangle.height)] {
                    frames = (frames ^ value) &* 1_099_511_628_211
                }
            }
            bytes.withUnsafeBytes { buffer in
                while !status.isTerminal && offset < buffer.count {
                    if delivery == "seek" && scanner.pendingSkip > 0 {
                        let jumped = scanner.skip(scanner.pendingSkip)
                        offset = jumped >= UInt64(buffer.count - offset) ? buffer.count : offset + Int(jumped)
                        status = scanner.status
                        continue
                    }
                    let size = delivery == "whole" ? buffer.count : 1 + Int(chunkRandom.next() % 64)
                    let end = min(buffer.count, offset + size)
                    status = scanner.feed(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]), onFrame: record)
                    offset = end
                }
            }
            if !status.isTerminal { status = scanner.finish() }
            lines.append("\(mode) \(delivery)\t\(checkDescription(status))\tconsumed=\(scanner.bytesConsumed) read=\(scanner.bytesRead) skipped=\(scanner.bytesSkipped) pending=\(scanner.pendingSkip) frames=\(String(frames, radix: 16))")
        }
    }
    return lines
}
