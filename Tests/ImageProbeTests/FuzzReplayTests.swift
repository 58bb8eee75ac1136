import Foundation
import ImageProbe
import ImageProbeFixtures
import Testing

/// Replays every committed fuzz input (seeds and fixed findings) through the fuzzer's checks.
@Suite struct FuzzReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func files(in folder: String) -> [URL] {
        let directory = root.appendingPathComponent("Fuzz").appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test func regressionsAndSeedsPassTheFuzzerChecks() throws {
        let inputs = Self.files(in: "regressions") + Self.files(in: "corpus")
        #expect(inputs.count >= SampleCatalog.all.count * 2)
        for url in inputs {
            let data = try [UInt8](Data(contentsOf: url))
            let failures = FuzzInput(data).check()
            #expect(failures.isEmpty, "\(url.lastPathComponent): \(failures.joined(separator: "\n"))")
        }
    }

    @Test func theSeedCorpusHasEverySample() throws {
        let names = Set(Self.files(in: "corpus").map(\.lastPathComponent))
        for sample in SampleCatalog.all {
            #expect(names.contains(sample.name), "run: swift run ImageProbeFuzz write-seeds Fuzz/corpus")
            let url = Self.root.appendingPathComponent("Fuzz/corpus/\(sample.name)")
            let data = try [UInt8](Data(contentsOf: url))
            #expect(Array(data.dropFirst(2)) == sample.bytes, "\(sample.name) is stale; rewrite the seeds")
            #expect(data.count <= 4096)
            if sample.frameCount != nil {
                #expect(names.contains(sample.name + "-anim"), "run: swift run ImageProbeFuzz write-seeds Fuzz/corpus")
            }
        }
    }
}

@Suite struct SampleCatalogTests {
    @Test(arguments: SampleCatalog.all.map(\.name))
    func everySampleScansAsBuilt(name: String) throws {
        let sample = try #require(SampleCatalog.all.first { $0.name == name })
        let found = info(verified(sample.bytes))
        #expect(found?.format == sample.format)
        #expect(found?.size == [sample.width, sample.height])
        #expect(found.map { $0.orientation.map { Int($0.rawValue) } } == .some(sample.orientation))
        #expect(found?.isPartial == false)
        if let frames = sample.frameCount {
            let animated = info(verified(sample.bytes, ScanOptions(mode: .animation)))
            #expect(animated?.frameCount == frames)
            #expect(animated?.size == [sample.width, sample.height])
        }
    }
}
