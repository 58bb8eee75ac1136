import ImageProbe

/// Stands in for a download that delivers chunks and can be stopped.
protocol Download: Sequence where Element == [UInt8] {
    func cancel()
}

/// Streaming with the core module alone.
func streaming(_ download: some Download) -> ScanStatus {
    var scanner = HeaderScanner()                      // or HeaderScanner(options: ScanOptions(mode: .dimensionsOnly))
    for chunk in download {                            // any chunk size
        switch scanner.feed(chunk) {                   // UnsafeRawBufferPointer, [UInt8], ArraySlice, Span...
        case .needMore:                                // n more bytes needed (a lower bound)
            continue
        case .done(let info):
            print(info.format.name, info.width, info.height, info.orientation?.rawValue ?? 1,
                  info.displayWidth, info.displayHeight)
            download.cancel()
        case .unsupported(let failure):
            print(failure.code.name, failure.message)  // unknownFormat, malformed, truncated, ...
            download.cancel()
        case .refused(let info, let failure):          // over ScanOptions.maxPixels: tooManyPixels
            print(failure.code.name, info.width, info.height)
            download.cancel()
        }
    }
    let final = scanner.finish()                       // end of input: needMore becomes an answer
    return final
}

/// Animation mode: each frame as the scan passes it, nothing kept.
func animation(_ bytes: [UInt8]) -> [Double] {
    var delays: [Double] = []
    var scanner = HeaderScanner(options: ScanOptions(mode: .animation))
    let status = scanner.feed(bytes) { frame in        // FrameInfo: index, delay (ms), rectangle
        delays.append(frame.playbackDelay)             // the delay as browsers play it
    }
    // .done(info): info.frameCount, info.loopCount, info.duration, info.playbackDuration, info.largestFrame
    if case .done(let info) = status { print(info.frameCount ?? 1, info.loopCount ?? -1, info.playbackDuration ?? 0) }
    return delays
}
