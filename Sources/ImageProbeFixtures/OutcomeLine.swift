import ImageProbe

extension ScanOutcome {
    /// Everything the C interface reports about this outcome, as one line of text, so that two
    /// builds of the scanner can be compared answer for answer: this package on a 64-bit host,
    /// and the WebAssembly module (wasm32, where `Int` is 32 bits) through
    /// `Tests/wasm32/replay.mjs`, which prints the same line from an `imageprobe_info`.
    ///
    ///     done png 1x1 display=1x1 orientation=0 depth=8 alpha=0 progressive=0 animated=1
    ///       frames=2147483648 loops=0 duration=- playback=- preview=- dpi=- cicp=- icc=-1 gainmap=-1
    ///       interlaced=0 motion=-1 partial=- read=61 skipped=0
    ///     unsupported truncated detected=png "..." read=12 skipped=0
    ///
    /// Counts are the stored ones (`exactFrameCount`), durations in whole microseconds, dots per
    /// inch as the C struct's 32-bit fields hold them.
    public var line: String {
        let counts = "read=\(bytesRead) skipped=\(bytesConsumed &- bytesRead)"
        switch status {
        case .needMore(let count):
            return "needMore \(count) \(counts)"
        case .unsupported(let failure):
            return "unsupported \(failure.code.name) detected=\(failure.format?.name ?? "-") \"\(failure.message)\" \(counts)"
        case .refused(let info, let failure):
            return "refused \(failure.code.name) detected=\(info.format.name) \(info.width)x\(info.height) \"\(failure.message)\" \(counts)"
        case .done(let info):
            func flag(_ value: Bool?) -> String { value.map { $0 ? "1" : "0" } ?? "-1" }
            func micros(_ value: Double?) -> String {
                guard let value else { return "-" }
                let scaled = (value * 1000).rounded()
                return scaled >= 0 && scaled < 1.8e19 ? String(UInt64(scaled)) : "huge"
            }
            let partial = info.partialReason.map { "\($0.code.name) \"\($0.message)\"" } ?? "-"
            return "done \(info.format.name) \(info.width)x\(info.height) display=\(info.displayWidth)x\(info.displayHeight)"
                + " orientation=\(info.orientation?.rawValue ?? 0) depth=\(info.bitDepth ?? -1)"
                + " alpha=\(flag(info.hasAlpha)) progressive=\(flag(info.isProgressive)) animated=\(flag(info.isAnimated))"
                + " frames=\(info.exactFrameCount.map { String($0) } ?? "-1") loops=\(info.exactLoopCount.map { String($0) } ?? "-1")"
                + " duration=\(micros(info.duration)) playback=\(micros(info.playbackDuration))"
                + " preview=\(info.epsPreview?.name ?? "-")"
                + " dpi=\(info.dpi.map { "\(Int32(clamping: $0.x))x\(Int32(clamping: $0.y))" } ?? "-")"
                + " cicp=\(info.cicp.map { "\($0.colourPrimaries)/\($0.transferCharacteristics)/\($0.matrixCoefficients)/\($0.isFullRange ? 1 : 0)" } ?? "-")"
                + " icc=\(flag(info.hasICCProfile)) gainmap=\(flag(info.hasGainMap)) interlaced=\(flag(info.isInterlaced))"
                + " motion=\(flag(info.isMotionPhoto)) partial=\(partial) \(counts)"
        }
    }
}

extension ScanOptions {
    /// The options as the replay manifest's columns: mode, maxBytes, maxWidth, maxHeight,
    /// maxEntries, maxDepth and inputLength (-1 when unknown), tab-separated.
    public var columns: String {
        let mode = switch mode {
        case .full: "full"
        case .dimensionsOnly: "dimensionsOnly"
        case .animation: "animation"
        }
        let length = inputLength.map { String($0) } ?? "-1"
        return "\(mode)\t\(maxBytes)\t\(maxWidth)\t\(maxHeight)\t\(maxEntries)\t\(maxDepth)\t\(length)"
    }

    /// Options from the manifest's columns, as `columns` writes them.
    public init?<Columns: Collection<String>>(columns: Columns) {
        let values = Array(columns)
        guard values.count == 7, let maxBytes = Int(values[1]), let maxWidth = Int(values[2]), let maxHeight = Int(values[3]),
              let maxEntries = Int(values[4]), let maxDepth = Int(values[5]), let length = Int64(values[6])
        else { return nil }
        switch values[0] {
        case "full": self.init(mode: .full)
        case "dimensionsOnly": self.init(mode: .dimensionsOnly)
        case "animation": self.init(mode: .animation)
        default: return nil
        }
        self.maxBytes = maxBytes
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxEntries = maxEntries
        self.maxDepth = maxDepth
        inputLength = length < 0 ? nil : UInt64(length)
    }
}
