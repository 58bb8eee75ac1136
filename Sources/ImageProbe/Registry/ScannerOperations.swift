/// Something the scanner does with the parser of a given kind: the registry's one dispatch
/// (`HeaderScanner.dispatch`, generated) calls it specialised for the parser's type.
@usableFromInline
protocol ScannerOperation {
    /// With the parser's type; returns whether the scan has ended.
    static func apply<Parser: FormatParser>(
        _ type: Parser.Type, _ scanner: inout HeaderScanner, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool
    /// When this build leaves the parser out (`IMAGEPROBE_SELECT_FORMATS`).
    static func unavailable(_ kind: ParserKind, _ scanner: inout HeaderScanner) -> Bool
}

extension ScannerOperation {
    @inlinable
    static func unavailable(_ kind: ParserKind, _ scanner: inout HeaderScanner) -> Bool {
        scanner.conclude(nil, ScanFailure(.unsupportedFeature, .formatLeftOutOfThisBuild, format: kind.primaryFormat))
        return true
    }
}

/// Runs the parser in the slot over the input, in place.
@usableFromInline
enum Drive: ScannerOperation {
    @inlinable @inline(__always)
    static func apply<Parser: FormatParser>(
        _ type: Parser.Type, _ scanner: inout HeaderScanner, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        let options = scanner.options
        let ended = scanner.slot.withParser(Parser.self) { parser in
            parser.drive(&scanner.reader, &input, options, &scanner.answer, &scanner.frames, onFrame)
        }
        guard let ended else {
            scanner.answer = .unsupported(HeaderScanner.missingParser)
            return true
        }
        return ended
    }
}

/// Starts the parser the sniffer decided on, in the slot, and sets up its first step.
@usableFromInline
enum Start: ScannerOperation {
    @inlinable @inline(__always)
    static func apply<Parser: FormatParser>(
        _ type: Parser.Type, _ scanner: inout HeaderScanner, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        guard let decision = scanner.slot.withParser(Sniffer.self, { $0.decision }) else {
            scanner.conclude(nil, HeaderScanner.missingParser)
            return true
        }
        let parser = Parser(sniffed: decision)
        guard scanner.slot.store(parser) else {
            scanner.conclude(nil, HeaderScanner.missingParser)
            return true
        }
        #if IMAGEPROBE_COMPACT
        return scanner.begin(parser.firstStep)
        #else
        let step = parser.firstStep
        switch step {
        case .read, .skipThenRead:
            if let failure = scanner.reader.apply(step) {
                scanner.conclude(nil, failure)
                return true
            }
        case .failed(let failure):
            scanner.conclude(nil, failure)
            return true
        case .done:
            break
        }
        return false
        #endif
    }
}

/// The end of the input: what the parser in the slot knows then.
@usableFromInline
enum Ending: ScannerOperation {
    @inlinable
    static func apply<Parser: FormatParser>(
        _ type: Parser.Type, _ scanner: inout HeaderScanner, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        guard let (info, format) = scanner.slot.withParser(Parser.self, { ($0.infoAtEndOfInput(), $0.format) }) else {
            scanner.conclude(nil, ScanFailure(.truncated, .inputEndedInsideTheHeader))
            return true
        }
        #if IMAGEPROBE_COMPACT
        scanner.end(info, format, Parser.emitsFrames)
        #else
        scanner.conclude(Parser.counted(info, scanner.frames, scanner.options), ScanFailure(.truncated, .inputEndedInsideTheHeader, format: format))
        #endif
        return true
    }
}

#if IMAGEPROBE_COMPACT
extension HeaderScanner {
    /// `Start`'s tail, for every parser: sets up the parser's first step. Returns whether that
    /// ended the scan.
    @usableFromInline @inline(never)
    mutating func begin(_ step: Step) -> Bool {
        switch step {
        case .read, .skipThenRead:
            if let failure = reader.apply(step) {
                conclude(nil, failure)
                return true
            }
        case .failed(let failure):
            conclude(nil, failure)
            return true
        case .done:
            break
        }
        return false
    }

    /// `Ending`'s tail, for every parser: the input ended with `info` known (counted in
    /// animation mode by parsers that walk frames).
    @usableFromInline @inline(never)
    mutating func end(_ info: ImageInfo?, _ format: ImageFormat?, _ emitsFrames: Bool) {
        var info = info
        if emitsFrames && options.animation, var counted = info {
            frames.apply(to: &counted)
            info = counted
        }
        conclude(info, ScanFailure(.truncated, .inputEndedInsideTheHeader, format: format))
    }
}
#endif

/// Something done with a parser's type alone (`ParserKind.visit`, generated).
@usableFromInline
protocol ParserVisitor {
    associatedtype Result
    func visit<Parser: FormatParser>(_ type: Parser.Type) -> Result
}
