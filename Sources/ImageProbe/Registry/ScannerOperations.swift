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
        scanner.concludeLeftOut(kind)
        return true
    }
}

extension HeaderScanner {
    /// Ends the scan of a format this build leaves out. Out of line in a size-optimised build,
    /// where each dispatch has a case per format left out.
    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
    mutating func concludeLeftOut(_ kind: ParserKind) {
        conclude(nil, ScanFailure(.unsupportedFeature, .formatLeftOutOfThisBuild, format: kind.primaryFormat))
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
        return scanner.begin(parser.firstStep)
    }
}

/// Starts the parser the sniffer decided on and runs it over the rest of the chunk: `Start`
/// then `Drive`, in one dispatch. The first chunk of almost every scan takes this path, so it
/// pays for one jump through the registry rather than two.
@usableFromInline
enum Launch: ScannerOperation {
    @inlinable @inline(__always)
    static func apply<Parser: FormatParser>(
        _ type: Parser.Type, _ scanner: inout HeaderScanner, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        Start.apply(type, &scanner, &input, onFrame) || Drive.apply(type, &scanner, &input, onFrame)
    }
}

/// The end of the input: what the parser in the slot knows then.
@usableFromInline
enum Ending: ScannerOperation {
    @inlinable
    static func apply<Parser: FormatParser>(
        _ type: Parser.Type, _ scanner: inout HeaderScanner, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        #if IMAGEPROBE_COMPACT
        let (frames, options) = (scanner.frames, scanner.options)
        guard let answer = scanner.slot.withParser(Parser.self, { $0.settle(nil, frames, options) }) else {
            scanner.conclude(nil, ScanFailure(.truncated, .inputEndedInsideTheHeader))
            return true
        }
        scanner.slot.occupant = .finished
        scanner.answer = answer
        #else
        guard let (info, format) = scanner.slot.withParser(Parser.self, { ($0.infoAtEndOfInput(), $0.format) }) else {
            scanner.conclude(nil, ScanFailure(.truncated, .inputEndedInsideTheHeader))
            return true
        }
        scanner.conclude(Parser.counted(info, scanner.frames, scanner.options), ScanFailure(.truncated, .inputEndedInsideTheHeader, format: format))
        #endif
        return true
    }
}

extension HeaderScanner {
    /// `Start`'s tail, for every parser: sets up the parser's first step. Returns whether that
    /// ended the scan. Compiled once in a size-optimised build.
    #if IMAGEPROBE_COMPACT
    @usableFromInline @inline(never)
    #else
    @inlinable @inline(__always)
    #endif
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
}

/// Something done with a parser's type alone (`ParserKind.visit`, generated).
@usableFromInline
protocol ParserVisitor {
    associatedtype Result
    func visit<Parser: FormatParser>(_ type: Parser.Type) -> Result
}
