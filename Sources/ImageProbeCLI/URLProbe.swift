import Foundation
import ImageProbe
import ImageProbeFetch

/// Whether an argument names a URL rather than a path.
func isURL(_ argument: String) -> Bool {
    let lowered = argument.prefix(8).lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
}

/// Probes `urls` with up to `jobs` at once; `report` is called in input order.
func probeURLs(_ urls: [(index: Int, url: String)], options: CommandLineOptions,
               report: @escaping @Sendable (Int, InputResult) async -> Void) async {
    var configuration = FetchConfiguration()
    configuration.scanOptions = options.scan
    configuration.maxConcurrentRequests = options.jobs
    configuration.requestTimeout = options.timeout
    // A probe may take a few requests; a longer request timeout must not be cut by the default.
    configuration.probeTimeout = max(configuration.probeTimeout, configuration.requestTimeout * 3)
    if options.publicOnly { configuration.addressPolicy = .publicOnly }
    configuration.certificateAuthorities = options.certificateAuthorities.map { URL(fileURLWithPath: $0) }
    let fetcher = ImageProbeFetcher(configuration: configuration)
    await withTaskGroup(of: (Int, InputResult).self) { group in
        for (index, text) in urls {
            group.addTask {
                guard let url = URL(string: text) else {
                    var failed = InputResult(path: text, status: .needMore(1), bytesRead: 0, bytesSkipped: 0)
                    failed.fetchError = (FetchError.Code.unsupportedURL.name, "not a valid URL", nil)
                    failed.network = (0, 0)
                    return (index, failed)
                }
                do throws(FetchError) {
                    let result = try await fetcher.probe(url)
                    var probed = InputResult(path: text, status: .done(result.info), bytesRead: 0, bytesSkipped: 0)
                    probed.network = (result.bytesTransferred, result.requests)
                    probed.mode = options.scan.mode
                    return (index, probed)
                } catch {
                    var failed = InputResult(path: text, status: .needMore(1), bytesRead: 0, bytesSkipped: 0)
                    if let scanFailure = error.scanFailure {
                        failed.status = .unsupported(scanFailure)
                    } else {
                        failed.fetchError = (error.code.name, error.message, error.status)
                    }
                    failed.network = (error.bytesTransferred, error.requests)
                    return (index, failed)
                }
            }
        }
        for await (index, result) in group { await report(index, result) }
    }
}
