import Foundation
@testable import ImageProbeFetch
import ImageProbeTestSupport
import Testing

/// An app's own work can fill the dispatch pool and Swift's cooperative pool. The transports
/// must hand the probe its response without waiting for a pool thread: in CI, CPU-bound tests
/// running beside the network tests once stalled URLSession's delegate callbacks for minutes,
/// and probes timed out. libcurl runs on the fetcher's own thread; URLSession's callbacks on a
/// serial queue of their own.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct BusyPoolTests {
    final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        var isStopped: Bool { lock.held { stopped } }
        func stop() { lock.held { stopped = true } }
    }

    @Test(arguments: [FetchConfiguration.Transport.platform, .urlSession])
    func answersWhileThePoolsAreBusy(transport: FetchConfiguration.Transport) async throws {
        let server = try NginxServer.require()
        let (url, _) = server.url("/range/big.jpg")
        let flag = StopFlag()
        let giveUp = Moment.now + .seconds(30)
        // Four busy jobs per core on each pool, spinning until the probe ends.
        let busyJobs = 4 * ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<busyJobs {
            DispatchQueue.global().async { while !flag.isStopped && Moment.now < giveUp {} }
            Task.detached { while !flag.isStopped && Moment.now < giveUp {} }
        }
        var configuration = FetchConfiguration()
        configuration.transport = transport
        configuration.requestTimeout = 20
        let fetcher = ImageProbeFetcher(configuration: configuration)
        let start = Moment.now
        // The completion form on a queue of its own, so the test itself needs no pool thread.
        // Timed where the result arrives: the test's own resumption waits for the busy pool.
        let (result, elapsed): (Result<ProbeResult, FetchError>, Elapsed) = await withCheckedContinuation { continuation in
            fetcher.probe(url, queue: DispatchQueue(label: "busy-pool-test")) { result in
                flag.stop()
                continuation.resume(returning: (result, Moment.now - start))
            }
        }
        flag.stop()
        #expect(try result.get().info.width == server.file("big.jpg").width)
        // Loopback requests take milliseconds; waiting for the pools would mean 20 s (the
        // request timeout) or 30 (the spinners giving up). Loose, for a busy run's sake.
        #expect(elapsed < .seconds(15), "\(elapsed)")
    }
}
