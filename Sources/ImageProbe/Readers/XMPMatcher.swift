// A streaming matcher for a few facts in an XMP packet (ISO 16684-1: RDF/XML), fed in pieces of
// any size, that never buffers the packet: a small XML lexer (start tags, attributes, text,
// end tags, comments, CDATA, processing instructions) whose only memory is a few integers,
// and a matcher that compares each name and each value, as it streams past, with a fixed set
// of literals.

/// What `XMPMatcher` found in an XMP packet.
struct XMPFacts: OptionSet, Sendable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `hdrgm:Version`, as an attribute or an element: Adobe's gain map namespace
    /// (`http://ns.adobe.com/hdr-gain-map/1.0/`) in use, as in both XMP packets of an Ultra HDR
    /// JPEG (the primary image's and the gain map image's).
    static var hdrGainMapVersion: XMPFacts { XMPFacts(rawValue: 1) }
    /// An `Item:Semantic` of `GainMap`: a Google container directory that lists a gain map image
    /// (an Ultra HDR primary image).
    static var gainMapItem: XMPFacts { XMPFacts(rawValue: 2) }
    /// Apple's gain map: the property `HDRGainMap:HDRGainMapVersion`, or a value that is
    /// `urn:com:apple:photo:2020:aux:hdrgainmap` (`apdi:AuxiliaryImageType` of the gain map
    /// image).
    static var appleGainMap: XMPFacts { XMPFacts(rawValue: 4) }
    /// A motion photo: `GCamera:MotionPhoto`, `Camera:MotionPhoto` or `GCamera:MicroVideo` of
    /// `1`, or an `Item:Semantic` of `MotionPhoto`.
    /// Any of the three gain-map facts. A constant, not an array literal: in Embedded Swift an
    /// OptionSet built from `[a, b, c]` may allocate the array, and the C library has no heap.
    static var anyGainMap: XMPFacts { XMPFacts(rawValue: 1 | 2 | 4) }
    static var motionPhoto: XMPFacts { XMPFacts(rawValue: 8) }
    /// `GCamera:MotionPhoto`, `Camera:MotionPhoto` or `GCamera:MicroVideo` of `0`: the writer
    /// says this is not a motion photo.
    static var notMotionPhoto: XMPFacts { XMPFacts(rawValue: 16) }
}

/// Finds whether an XMP packet describes a gain map (Ultra HDR, Adobe's or Apple's) or a motion
/// photo, fed the packet's bytes in pieces of any size. The answer is the same however the
/// packet is split: every piece of state lives in the fields below (under 16 bytes), and each
/// byte is looked at exactly once, in order.
///
/// What it matches, and the sources it follows:
///
/// - `hdrgm:Version` (any value), attribute `hdrgm:Version="1.0"` or element
///   `<hdrgm:Version>1.0</hdrgm:Version>`: Adobe's gain map namespace, which libultrahdr's XMP
///   writer (`jpegrutils.cpp`, `generateXmpForPrimaryImage` and `…SecondaryImage`) and the
///   Ultra HDR format v1.0 write as attributes, and Skia's XMP tests as elements.
/// - `Item:Semantic` of `GainMap` or `MotionPhoto`: an item of the Google container directory
///   (`Container:Directory`, namespace `http://ns.google.com/photos/1.0/container/item/`) that
///   libultrahdr writes for the gain map and the Motion Photo format 1.0 for the video, and
///   Samsung's recent phones too (PetrVys/MotionPhoto2, which copies the Galaxy S23's XMP).
/// - `GCamera:MotionPhoto` (Motion Photo format 1.0, developer.android.com, and what Pixel
///   phones, Samsung's phones and exiftool's XMP-GCamera group write), `Camera:MotionPhoto`
///   (the format's stated default prefix, which some phones, the Nothing Phone (2), write) and
///   `GCamera:MicroVideo` (Pixel 2 to 4's older `MVIMG_` files, in exiftool's XMP-GCamera
///   tags): `1` is a motion photo, `0` is not, anything else says nothing. Other properties of
///   the same family (`MotionPhotoVersion`, `MicroVideoOffset`, …) say nothing.
/// - `HDRGainMap:HDRGainMapVersion` (any value; namespace `http://ns.apple.com/HDRGainMap/1.0/`,
///   the key Apple's "Applying Apple HDR effect to your photos" says marks a valid gain map),
///   and a value of exactly `urn:com:apple:photo:2020:aux:hdrgainmap` on any property (what
///   Apple writes as `apdi:AuxiliaryImageType` on the gain map image; Skia's `SkJpegXmp` looks
///   for it there).
///
/// Namespace prefixes are arbitrary in XML: only the URI a prefix is bound to names a
/// namespace. The matcher compares the qualified names above literally, with the conventional
/// prefixes, because every writer found uses them (libultrahdr, Android's cameras, Samsung,
/// exiftool, Apple's ImageIO); a packet that binds the same namespaces to other prefixes is not
/// recognised. Names are matched only where the XML makes them names (an element's or an
/// attribute's), and values only where it makes them values (an attribute's quoted value, or
/// the text right after a start tag, up to the next `<`): the same words in other text, in
/// another attribute's value, in a comment, a CDATA section or a processing instruction are
/// ignored. Values are compared without leading and trailing XML white space (so
/// `<GCamera:MotionPhoto> 1 </GCamera:MotionPhoto>` counts); character references and entities
/// are not decoded. Attribute values take either quote, with white space around `=`.
///
/// A value counts when it ends (its closing quote, or the `<` after the text): a packet cut
/// short in the middle of one doesn't report it.
struct XMPMatcher: Sendable {
    /// Where the lexer is in the XML.
    enum State: UInt8, Sendable {
        /// Text that is not a value worth reading (after an end tag or an empty element).
        case text
        /// Text right after a start tag: the element's value, read until the next `<`.
        case textValue
        /// Just after `<`.
        case open
        /// An element's name, after `<`.
        case elementName
        /// In a start tag, between attributes.
        case tag
        /// In a start tag, after `/`: `>` closes an empty element.
        case tagSlash
        /// An attribute's name.
        case attributeName
        /// After an attribute's name: white space, then `=`.
        case afterName
        /// After `=`: white space, then the opening quote.
        case beforeValue
        /// An attribute's value, until the quote in `mark`.
        case attributeValue
        /// An end tag, until `>`.
        case endTag
        /// Just after `<!`.
        case bang
        /// Just after `<!-`.
        case bangDash
        /// A comment; `mark` counts the `-` just seen (0 to 2).
        case comment
        /// A CDATA section (or anything else `<![` opens); `mark` counts the `]` just seen.
        case cdata
        /// A declaration (`<!DOCTYPE …`), until `>`.
        case declaration
        /// A processing instruction (`<?xpacket …?>`); `mark` is 1 just after a `?`.
        case instruction
    }

    var state: State = .text
    /// The closing quote of the attribute value being read, or a counter of the comment,
    /// CDATA section or processing instruction being skipped (see `State`).
    var mark: UInt8 = 0
    /// The literals (`Literal`) the current name or value still matches: one bit each.
    var candidates: UInt16 = 0
    /// Bytes of the current name or value compared so far (its leading white space not
    /// counted); it stops growing when no candidate is left, so it never passes the longest
    /// literal's length.
    var length: UInt8 = 0
    /// White space has followed the value's first bytes: any further byte ends every match.
    var trailing: Bool = false
    /// The property (`Literal`) the current start tag's element is, or `Literal.none`.
    var element: UInt8 = Literal.none
    /// The property (`Literal`) whose value is being read, or `Literal.none`.
    var property: UInt8 = Literal.none
    /// What was found so far.
    var facts: XMPFacts = []

    init() {}

    // MARK: What callers read

    /// A gain map, Adobe's (Ultra HDR) or Apple's.
    var hasGainMap: Bool { !facts.isDisjoint(with: .anyGainMap) }

    /// True when a property says this is a motion photo, false when one says it is not (`0`)
    /// and none says it is, nil when none says either.
    var motionPhoto: Bool? {
        if facts.contains(.motionPhoto) { return true }
        return facts.contains(.notMotionPhoto) ? false : nil
    }

    /// Whether anything was found: a caller that only needs to know whether the packet says
    /// something may stop feeding. (A `0` for a motion photo may still be followed by a `1`,
    /// and a gain map by a motion photo.)
    var foundAnything: Bool { !facts.isEmpty }

    // MARK: Feeding

    /// Feeds the next bytes of the packet.
    mutating func consume(_ field: FieldBytes) {
        var index = 0
        while index < field.count {
            consume(byte: field.u8(index))
            index &+= 1
        }
    }

    /// Feeds the next bytes of the packet from a buffer of any length (tests, the fuzzer), in
    /// fields of at most `Carry.capacity` bytes as the parsers feed it.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        var cursor = InputCursor(bytes)
        while cursor.remaining > 0 {
            consume(cursor.take(min(cursor.remaining, Carry.capacity)))
        }
    }

    /// Feeds one byte.
    mutating func consume(byte: UInt8) {
        switch state {
        case .text:
            if byte == Byte.lessThan { state = .open }
        case .textValue:
            if byte == Byte.lessThan {
                finishValue()
                state = .open
            } else {
                feedValue(byte)
            }
        case .open:
            switch byte {
            case Byte.slash: state = .endTag
            case Byte.bang: state = .bang
            case Byte.question:
                mark = 0
                state = .instruction
            default:
                if Self.endsName(byte) {
                    // Not a name (`< `, `<>`): read on as a start tag without one.
                    element = Literal.none
                    state = .tag
                    inTag(byte)
                } else {
                    beginName(byte)
                    state = .elementName
                }
            }
        case .elementName:
            if Self.endsName(byte) {
                element = matchedLiteral
                state = .tag
                inTag(byte)
            } else {
                feedName(byte)
            }
        case .tag:
            inTag(byte)
        case .tagSlash:
            if byte == Byte.greaterThan {
                state = .text
            } else {
                state = .tag
                inTag(byte)
            }
        case .attributeName:
            if Self.endsName(byte) {
                property = matchedLiteral
                state = .afterName
                afterName(byte)
            } else {
                feedName(byte)
            }
        case .afterName:
            afterName(byte)
        case .beforeValue:
            if ASCII.isXMLSpace(byte) { return }
            if byte == Byte.doubleQuote || byte == Byte.singleQuote {
                beginValue(closingQuote: byte)
            } else {
                // An unquoted value is not XML: read on in the tag.
                state = .tag
                inTag(byte)
            }
        case .attributeValue:
            if byte == mark {
                finishValue()
                state = .tag
            } else {
                feedValue(byte)
            }
        case .endTag:
            if byte == Byte.greaterThan {
                state = .text
            } else if byte == Byte.lessThan {
                state = .open
            }
        case .bang:
            switch byte {
            case Byte.dash: state = .bangDash
            case Byte.openBracket:
                mark = 0
                state = .cdata
            case Byte.greaterThan: state = .text
            default: state = .declaration
            }
        case .bangDash:
            switch byte {
            case Byte.dash:
                mark = 0
                state = .comment
            case Byte.greaterThan: state = .text
            default: state = .declaration
            }
        case .comment:
            // Ends at `-->`.
            skip(byte, counting: Byte.dash, upTo: 2)
        case .cdata:
            // Ends at `]]>`.
            skip(byte, counting: Byte.closeBracket, upTo: 2)
        case .declaration:
            if byte == Byte.greaterThan { state = .text }
        case .instruction:
            // Ends at `?>`.
            skip(byte, counting: Byte.question, upTo: 1)
        }
    }

    // MARK: The lexer's steps

    /// A byte in a start tag, between attributes.
    mutating func inTag(_ byte: UInt8) {
        switch byte {
        case Byte.greaterThan:
            // The start tag ends: its text is the element's value.
            property = element
            beginValue(closingQuote: nil)
        case Byte.slash: state = .tagSlash
        case Byte.lessThan: state = .open
        case Byte.doubleQuote, Byte.singleQuote:
            // A value without a name: skipped as one, so that nothing in it reads as a name.
            property = Literal.none
            beginValue(closingQuote: byte)
        case Byte.equals:
            property = Literal.none
            state = .beforeValue
        default:
            if ASCII.isXMLSpace(byte) { return }
            beginName(byte)
            state = .attributeName
        }
    }

    /// A byte after an attribute's name.
    mutating func afterName(_ byte: UInt8) {
        if ASCII.isXMLSpace(byte) { return }
        if byte == Byte.equals {
            state = .beforeValue
        } else {
            // An attribute without a value is not XML: read on in the tag.
            state = .tag
            inTag(byte)
        }
    }

    /// A byte of a comment, a CDATA section or a processing instruction, which ends at `count`
    /// bytes `counted` (or more) followed by `>`.
    mutating func skip(_ byte: UInt8, counting counted: UInt8, upTo count: UInt8) {
        if byte == counted {
            if mark < count { mark &+= 1 }
        } else {
            if byte == Byte.greaterThan && mark == count { state = .text }
            mark = 0
        }
    }

    /// Whether `byte` ends a name (or can't start one): XML white space or a delimiter. Every
    /// other byte, non-ASCII ones included, is read as part of the name.
    static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case Byte.equals, Byte.greaterThan, Byte.slash, Byte.lessThan, Byte.doubleQuote, Byte.singleQuote: true
        default: ASCII.isXMLSpace(byte)
        }
    }

    // MARK: Names and values

    /// Starts comparing a name with the property names, with its first byte.
    mutating func beginName(_ byte: UInt8) {
        candidates = Literal.names
        length = 0
        trailing = false
        feedName(byte)
    }

    mutating func feedName(_ byte: UInt8) {
        guard candidates != 0 else { return }
        compare(byte)
    }

    /// Starts reading the value of `property`: an attribute's, up to `closingQuote`, or an
    /// element's text (nil).
    mutating func beginValue(closingQuote: UInt8?) {
        candidates = Literal.values(of: property)
        length = 0
        trailing = false
        if let closingQuote {
            mark = closingQuote
            state = .attributeValue
        } else {
            state = .textValue
        }
    }

    mutating func feedValue(_ byte: UInt8) {
        guard candidates != 0 else { return }
        if ASCII.isXMLSpace(byte) {
            // Leading white space is skipped; after the first bytes it may only trail.
            if length != 0 { trailing = true }
        } else if trailing {
            candidates = 0
        } else {
            compare(byte)
        }
    }

    /// Keeps the candidates whose byte at `length` is `byte`, and counts it.
    mutating func compare(_ byte: UInt8) {
        let index = Int(length)
        var left = candidates
        var kept: UInt16 = 0
        // One pass per candidate left, each clearing its bit: at most 11.
        while left != 0 {
            let literal = UInt8(truncatingIfNeeded: left.trailingZeroBitCount)
            left &= left &- 1
            if Literal.byte(of: literal, at: index) == byte { kept |= 1 << UInt16(literal) }
        }
        candidates = kept
        if kept != 0 { length &+= 1 }
    }

    /// The literal the name or value read so far is, whole, or `Literal.none`.
    var matchedLiteral: UInt8 { Literal.whole(candidates, length: length) }

    /// A value has ended: records what it and its property say.
    mutating func finishValue() {
        let value = matchedLiteral
        switch property {
        case Literal.hdrgmVersion:
            facts.insert(.hdrGainMapVersion)
        case Literal.appleVersion:
            facts.insert(.appleGainMap)
        case Literal.itemSemantic:
            if value == Literal.gainMap { facts.insert(.gainMapItem) }
            if value == Literal.motionPhotoItem { facts.insert(.motionPhoto) }
        case Literal.googleMotionPhoto, Literal.motionPhoto, Literal.microVideo:
            if value == Literal.one { facts.insert(.motionPhoto) }
            if value == Literal.zero { facts.insert(.notMotionPhoto) }
        default:
            break
        }
        if value == Literal.appleAuxiliaryType { facts.insert(.appleGainMap) }
        candidates = 0
    }

    /// The property names and values the matcher compares with, by number (a bit of
    /// `candidates`).
    enum Literal {
        // Property names (qualified, with their conventional prefixes).
        static var hdrgmVersion: UInt8 { 0 }
        static var itemSemantic: UInt8 { 1 }
        static var appleVersion: UInt8 { 2 }
        static var googleMotionPhoto: UInt8 { 3 }
        static var motionPhoto: UInt8 { 4 }
        static var microVideo: UInt8 { 5 }
        // Values.
        static var one: UInt8 { 6 }
        static var zero: UInt8 { 7 }
        static var gainMap: UInt8 { 8 }
        static var motionPhotoItem: UInt8 { 9 }
        static var appleAuxiliaryType: UInt8 { 10 }
        /// No literal.
        static var none: UInt8 { 0xFF }

        /// The property names, as candidates.
        static var names: UInt16 { 0b11_1111 }

        /// The values worth comparing for `property`, as candidates: Apple's gain map type for
        /// any property, and what the property's own values can say.
        static func values(of property: UInt8) -> UInt16 {
            let any: UInt16 = 1 << 10
            switch property {
            case itemSemantic: return any | 1 << 8 | 1 << 9
            case googleMotionPhoto, motionPhoto, microVideo: return any | 1 << 6 | 1 << 7
            default: return any
            }
        }

        static func text(_ literal: UInt8) -> StaticString {
            switch literal {
            case 0: "hdrgm:Version"
            case 1: "Item:Semantic"
            case 2: "HDRGainMap:HDRGainMapVersion"
            case 3: "GCamera:MotionPhoto"
            case 4: "Camera:MotionPhoto"
            case 5: "GCamera:MicroVideo"
            case 6: "1"
            case 7: "0"
            case 8: "GainMap"
            case 9: "MotionPhoto"
            default: "urn:com:apple:photo:2020:aux:hdrgainmap"
            }
        }

        /// The literal among `candidates` that is `length` bytes long, or `none`.
        static func whole(_ candidates: UInt16, length: UInt8) -> UInt8 {
            var left = candidates
            while left != 0 {
                let literal = UInt8(truncatingIfNeeded: left.trailingZeroBitCount)
                left &= left &- 1
                if text(literal).utf8CodeUnitCount == Int(length) { return literal }
            }
            return none
        }

        /// Byte `index` of literal `literal`, or nil past its end.
        static func byte(of literal: UInt8, at index: Int) -> UInt8? {
            text(literal).withUTF8Buffer { $0.dropFirst(index).first }
        }
    }

    /// The ASCII bytes the lexer looks for.
    enum Byte {
        static var lessThan: UInt8 { 0x3C }
        static var greaterThan: UInt8 { 0x3E }
        static var slash: UInt8 { 0x2F }
        static var bang: UInt8 { 0x21 }
        static var question: UInt8 { 0x3F }
        static var equals: UInt8 { 0x3D }
        static var doubleQuote: UInt8 { 0x22 }
        static var singleQuote: UInt8 { 0x27 }
        static var dash: UInt8 { 0x2D }
        static var openBracket: UInt8 { 0x5B }
        static var closeBracket: UInt8 { 0x5D }
    }
}

/// The XMP matcher for the libFuzzer harness (Fuzz/), which imports the module without
/// `@testable`: not part of the API.
@_spi(Fuzzing)
public struct XMPMatcherProbe {
    var matcher = XMPMatcher()

    /// A matcher that has read nothing.
    public init() {}

    /// Feeds the next bytes of the packet.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        matcher.consume(bytes)
    }

    /// What was found so far, as `XMPFacts`' raw value.
    public var facts: UInt8 { matcher.facts.rawValue }
}
