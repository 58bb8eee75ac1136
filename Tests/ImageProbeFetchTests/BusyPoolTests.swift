import Foundation
@testable import ImageProbeFetch
import Testing

/// An app's own work can fill the dispatch pool and Swift's cooperative pool. The fetcher runs
/// on a thread of its own, and URLSession must hand it the response without waiting for a
/// pool thread: in CI, CPU-bound tests running beside the network tests stalled URLSession's
/// delegate callbacks for minutes, and probes timed out.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct BusyPoolTests {
    final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        var isStopped: Bool { lock.withLock { stopped } }
        func stop() { lock.withLock { stopped = true } }
    }

    struct Transfer: Sendable {
        var bodyBytes = 0
        var error: FetchError? = nil
        var seconds = 0.0
    }

    @Test func urlSessionAnswersWhileThePoolsAreBusy() async throws {
        let (url, _) = try NginxServer.require().url("/range/big.jpg")
        let flag = StopFlag()
        let giveUp = ContinuousClock.now + .seconds(30)
        // Four busy jobs per core on each pool, spinning until the transfer ends.
        let busyJobs = 4 * ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<busyJobs {
            DispatchQueue.global().async { while !flag.isStopped && ContinuousClock.now < giveUp {} }
            Task.detached { while !flag.isStopped && ContinuousClock.now < giveUp {} }
        }
        let transfer: Transfer = await withCheckedContinuation { continuation in
            Thread {
                var transfer = Transfer()
                let start = ContinuousClock.now
                let transport = URLSessionTransport(cancellation: Cancellation(), timeout: 20)
                defer { transport.close() }
                do throws(FetchError) {
                    let deadline = start + .seconds(20)
                    let request = HTTPRequest(url: url, range: (first: 0, last: 1023), userAgent: "imageprobe-tests")
                    _ = try transport.send(request, until: deadline)
                    _ = try transport.readBody(until: deadline) { chunk in
                        transfer.bodyBytes += chunk.count
                        return true
                    }
                } catch {
                    transfer.error = error
                }
                let (seconds, attoseconds) = (ContinuousClock.now - start).components
                transfer.seconds = Double(seconds) + Double(attoseconds) / 1e18
                flag.stop()
                continuation.resume(returning: transfer)
            }.start()
        }
        #expect(transfer.error == nil)
        #expect(transfer.bodyBytes == 1024)
        // A loopback request takes milliseconds; seconds would mean it waited for the pools.
        #expect(transfer.seconds < 5, "\(transfer.seconds) s")
    }
}
