import Foundation
import ImageProbe
import ImageProbeFetch

/// `network BASE_URL [--initial N] [--minimum N] [--jump N] [--label L] PATH...`: probes each
/// `BASE_URL/PATH?run=L` in turn with a fresh, uncached fetcher and prints one JSON line of
/// totals. Benchmarks/network.sh serves the corpus with nginx and sums its log per label.
func networkSweep(_ arguments: [String]) -> Never {
    var configuration = FetchConfiguration()
    configuration.cacheCapacity = 0
    var label = "run"
    var paths: [String] = []
    var iterator = arguments.dropFirst().makeIterator()
    guard let base = iterator.next() else {
        print("usage: imageprobe-bench network BASE_URL [--initial N] [--minimum N] [--jump N] [--label L] PATH...")
        exit(2)
    }
    while let argument = iterator.next() {
        switch argument {
        case "--initial": configuration.initialRangeLength = Int(iterator.next() ?? "") ?? configuration.initialRangeLength
        case "--minimum": configuration.minimumRequest = Int(iterator.next() ?? "") ?? configuration.minimumRequest
        case "--jump": configuration.jumpThreshold = Int(iterator.next() ?? "") ?? configuration.jumpThreshold
        case "--growth": configuration.requestGrowth = Int(iterator.next() ?? "") ?? configuration.requestGrowth
        case "--label": label = iterator.next() ?? label
        default: paths.append(argument)
        }
    }
    let settings = configuration
    let targets = paths
    let runLabel = label
    let totals = Totals()
    let done = DispatchSemaphore(value: 0)
    Task {
        let fetcher = ImageProbeFetcher(configuration: settings)
        for path in targets {
            let url = URL(string: base + path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "?run=" + runLabel)!
            do throws(FetchError) {
                let result = try await fetcher.probe(url)
                totals.add(answered: true, requests: result.requests, bytes: result.bytesTransferred)
            } catch {
                totals.add(answered: false, requests: 0, bytes: 0)
            }
        }
        done.signal()
    }
    done.wait()
    let line: [String: Any] = [
        "label": label, "initial": settings.initialRangeLength, "minimum": settings.minimumRequest, "jump": settings.jumpThreshold, "growth": settings.requestGrowth,
        "files": paths.count, "answered": totals.answered, "requests": totals.requests, "bytesReceived": totals.bytes,
    ]
    let data = try! JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
    exit(0)
}

private final class Totals: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var answered = 0
    private(set) var requests = 0
    private(set) var bytes = 0

    func add(answered ok: Bool, requests count: Int, bytes received: Int) {
        lock.lock()  // (NSLock.withLock needs macOS 13)
        defer { lock.unlock() }
        answered += ok ? 1 : 0
        requests += count
        bytes += received
    }
}
