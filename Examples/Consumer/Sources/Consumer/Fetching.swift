import Foundation
import ImageProbeFetch

/// Sizes from URLs.
func fetching(_ url: URL) async throws {
    let fetcher = ImageProbeFetcher()                  // FetchConfiguration(): timeouts, limits, cache size
    let result = try await fetcher.probe(URL(string: "https://example.com/photo.heic")!)
    print(result.info.displayWidth, result.info.displayHeight, result.bytesTransferred, result.requests)

    let handle = fetcher.probe(url, queue: .main) { result in print(result) }   // completion-handler form
    handle.cancel()                                                              // completion gets .cancelled
    _ = try await fetcher.probe(url, force: true)      // bypass the cache
}

/// Probing URLs that untrusted users send.
func fetchingForUsers(_ userURL: URL) async {
    var configuration = FetchConfiguration()
    configuration.addressPolicy = .publicOnly          // or .publicOnly(allowing: [AddressRange("10.8.0.0/16")!])
    configuration.maxConcurrentRequests = 32
    configuration.requestTimeout = 5         // name resolution and connecting included
    configuration.probeTimeout = 10          // the whole probe, redirects included
    configuration.maxBytes = 1 << 20                   // whatever the server sends
    let fetcher = ImageProbeFetcher(configuration: configuration)

    do {
        let result = try await fetcher.probe(userURL)
        print(result.info)
    } catch let error where error.code == .forbiddenAddress {
        // The URL, or a redirect, led to a loopback, private, link-local or other non-public
        // address: nothing was sent there.
    } catch {
        print(error)
    }
}
