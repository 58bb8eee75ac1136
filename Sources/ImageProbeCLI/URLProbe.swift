import Dispatch
import Foundation
import ImageProbe
import ImageProbeFetch

/// Whether an argument names a URL rather than a path.
func isURL(_ argument: InputName) -> Bool {
    let lowered = String(decoding: argument.bytes.prefix(8), as: UTF8.self).lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
}

/// The command's fetcher: one for all its URLs, so they share connections and the `-j` limit.
final class URLProber: Sendable {
    let fetcher: ImageProbeFetcher
    private let mode: ScanOptions.Mode
    private let queue = DispatchQueue(label: "imageprobe.urls")

    init(options: CommandLineOptions) {
        var configuration = FetchConfiguration()
        configuration.scanOptions = options.scan
        // --max-bytes bounds what comes off the network (heads and framing included), and
        // the scanner with it: above the default it lets a longer header through.
        configuration.maxBytes = options.scan.maxBytes
        configuration.maxConcurrentRequests = options.urlJobs
        configuration.maxConnectionsPerHost = options.hostConnections
        configuration.requestTimeout = options.timeout
        // A probe may take a few requests; a longer request timeout must not be cut by the default.
        configuration.probeTimeout = max(configuration.probeTimeout, configuration.requestTimeout * 3)
        // A few results, so a URL the list repeats is fetched once even when its first probe
        // ended before the repeat started (concurrent repeats share one fetch anyway). Bounded:
        // memory per URL stays O(1).
        configuration.cacheCapacity = 64
        if options.publicOnly { configuration.addressPolicy = .publicOnly(allowing: options.allow.compactMap(AddressRange.init)) }
        configuration.certificateAuthorities = options.certificateAuthorities.map { URL(fileURLWithPath: $0) }
        fetcher = ImageProbeFetcher(configuration: configuration)
        mode = options.scan.mode
    }

    /// Starts probing `name`; the slot is filled with its result.
    func start(_ name: InputName) -> ResultSlot {
        let slot = ResultSlot()
        guard name.isUTF8, let url = URL(string: name.text) else {
            var failed = InputResult(path: name, status: .needMore(1), bytesRead: 0, bytesSkipped: 0)
            failed.fetchError = (FetchError.Code.unsupportedURL.name, "not a valid URL", nil)
            failed.network = (0, 0)
            slot.fill(failed)
            return slot
        }
        let mode = self.mode
        fetcher.probe(url, queue: queue) { result in
            switch result {
            case .success(let probed):
                var filled = InputResult(path: name, status: .done(probed.info), bytesRead: 0, bytesSkipped: 0)
                filled.network = (probed.bytesTransferred, probed.requests)
                filled.mode = mode
                slot.fill(filled)
            case .failure(let error):
                var failed = InputResult(path: name, status: .needMore(1), bytesRead: 0, bytesSkipped: 0)
                if let scanFailure = error.scanFailure {
                    failed.status = error.refusedImage.map { .refused($0, scanFailure) } ?? .unsupported(scanFailure)
                } else {
                    failed.fetchError = (error.code.name, error.message, error.status)
                }
                failed.network = (error.bytesTransferred, error.requests)
                slot.fill(failed)
            }
        }
        return slot
    }
}
