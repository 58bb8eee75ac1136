import Foundation
import ImageProbe
import ImageProbeFetch
import ImageProbeFoundation

// A file, in one call: reads just far enough, jumping what it skips.
let photo = try ImageInfo(contentsOfFile: CommandLine.arguments[1])
print(photo.format.name, photo.displayWidth, photo.displayHeight)

// Bytes already in memory.
var scanner = HeaderScanner()
if case .done(let info) = scanner.feed(try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))) {
    print(info.mimeType, info.orientation?.rawValue ?? 1)
}

// Any async sequence of chunks, stopping at the answer.
let chunks = AsyncStream<[UInt8]> { $0.yield(Array(try! Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))); $0.finish() }
print(try await HeaderScanner.scan(chunks: chunks))

// A URL: Range requests, cancelled at the answer, cached.
if CommandLine.arguments.count > 2, let url = URL(string: CommandLine.arguments[2]) {
    let result = try await ImageProbeFetcher().probe(url)
    print(result.info, "in \(result.bytesTransferred) bytes")
}
