import Dispatch
import Foundation

/// One input's result, filled in by whichever thread probes it and awaited by the printer.
final class ResultSlot: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: InputResult?

    func fill(_ value: InputResult) {
        condition.lock()
        result = value
        condition.broadcast()
        condition.unlock()
    }

    var isFilled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return result != nil
    }

    func wait() -> InputResult {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}

/// Probes up to `jobs` files at once on dispatch's threads (reads block, so not on the
/// cooperative pool) and hands results to `print` in input order, each as soon as it and every
/// input before it are done. At most `window` results wait behind a slow one, so a huge tree
/// behind a stalled input doesn't pile up in memory.
struct OrderedResults {
    private var pending: [ResultSlot] = []
    private var first = 0
    private let permits: DispatchSemaphore
    private let window: Int
    private let print: (InputResult) -> Void

    /// `jobs` files at once; the window is sized for `waiting` inputs in flight (URLs too).
    init(jobs: Int, waiting: Int, print: @escaping (InputResult) -> Void) {
        permits = DispatchSemaphore(value: jobs)
        window = max(16, 4 * waiting)
        self.print = print
    }

    /// Runs `work` on another thread once fewer than `jobs` are running.
    mutating func submit(_ work: @escaping @Sendable () -> InputResult) {
        let slot = ResultSlot()
        let permits = self.permits
        permits.wait()
        DispatchQueue.global().async {
            slot.fill(work())
            permits.signal()
        }
        append(slot)
    }

    /// Queues a slot that something else fills (a URL's fetch).
    mutating func append(_ slot: ResultSlot) {
        pending.append(slot)
        printReady(waitingWhileOver: window)
    }

    /// Prints everything left, waiting for each in turn.
    mutating func finish() { printReady(waitingWhileOver: 0) }

    private mutating func printReady(waitingWhileOver limit: Int) {
        while first < pending.count {
            let slot = pending[first]
            guard pending.count - first > limit || slot.isFilled else { break }
            print(slot.wait())
            first += 1
        }
        if first > 64 && first * 2 > pending.count {
            pending.removeFirst(first)
            first = 0
        }
    }
}
