import Foundation
import ImageProbe
import ImageProbeFetch
import Testing

/// An app's code depends on `ImageSizeProbing`; its tests pass a stub, with no network.
@Suite struct MockingTests {
    /// What an app would write: a layout helper that asks any prober.
    struct Layout {
        var prober: any ImageSizeProbing
        func aspectRatio(of url: URL) async -> Double? {
            guard let result = try? await prober.probe(url) else { return nil }
            return Double(result.info.displayWidth) / Double(result.info.displayHeight)
        }
    }

    struct StubProber: ImageSizeProbing {
        var answers: [URL: Result<ProbeResult, FetchError>]
        func probe(_ url: URL, force: Bool) async throws(FetchError) -> ProbeResult {
            guard let answer = answers[url] else { throw FetchError(.httpStatus, "not found", status: 404) }
            return try answer.get()
        }
    }

    @Test func aStubStandsInForTheFetcher() async throws {
        var options = ScanOptions()
        options.mode = .dimensionsOnly
        var scanner = HeaderScanner(options: options)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0x02, 0x80, 0, 0, 0x01, 0xE0, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        guard case .done(let info) = png.withUnsafeBytes({ scanner.feed($0) }) else {
            Issue.record("the PNG header did not answer")
            return
        }
        let photo = try #require(URL(string: "https://example.com/photo.png"))
        let missing = try #require(URL(string: "https://example.com/missing.png"))
        let stub = StubProber(answers: [
            photo: .success(ProbeResult(info: info, bytesTransferred: 33, requests: 1, finalURL: photo, fromCache: false)),
        ])
        let layout = Layout(prober: stub)
        #expect(await layout.aspectRatio(of: photo) == 640.0 / 480.0)
        #expect(await layout.aspectRatio(of: missing) == nil)
        do {
            _ = try await stub.probe(missing)
            Issue.record("no error")
        } catch {
            #expect(error.code == .httpStatus && error.status == 404 && error.code.name == "httpStatus")
        }
        // The real fetcher is one too.
        let real: any ImageSizeProbing = ImageProbeFetcher()
        #expect(real is ImageProbeFetcher)
    }
}
