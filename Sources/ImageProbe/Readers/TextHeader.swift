// Byte classes and fixed-size accumulators shared by the text-headed formats: PNM, PAM, PFM,
// SVG, Radiance and XBM. Their parsers read one byte per step and keep nothing but these, so a
// token split across chunks is invisible to them and their state stays a few dozen bytes.

/// Byte classes of the ASCII text headers.
enum ASCII {
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// C's `isspace`, which Netpbm uses: space, tab, LF, VT, FF and CR.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// XML's white space (production S): space, tab, CR and LF.
    static func isXMLSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Space or tab: the white space inside one line.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    /// ASCII letters folded to lower case; every other byte unchanged.
    static func lowercased(_ byte: UInt8) -> UInt8 { isLetter(byte) ? byte | 0x20 : byte }

    /// Byte `index` of the ASCII text `literal`, or 0 past its end: for matching a keyword
    /// one byte per step.
    static func byte(of literal: StaticString, at index: Int) -> UInt8 {
        literal.withUTF8Buffer { bytes in
            for (position, byte) in bytes.enumerated() where position == index { return byte }
            return 0
        }
    }

    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let hash: UInt8 = 0x23
}

/// A non-negative decimal integer read one digit at a time.
///
/// Capped at 2^31 − 1, the largest value Netpbm's, X11's and Radiance's own readers accept (they
/// read into a C `int`); a longer number is an overflow, never a wrapped value.
struct DecimalInteger: Sendable {
    var value: UInt32 = 0

    static let maximum = UInt32(Int32.max)

    init() {}

    /// Starts a number with its first digit.
    init(firstDigit: UInt8) {
        value = UInt32(firstDigit &- 0x30)
    }

    /// Appends the ASCII digit `digit`; false when the number exceeds `maximum`.
    mutating func append(_ digit: UInt8) -> Bool {
        let next = UInt64(value) &* 10 &+ UInt64(digit &- 0x30)
        guard next <= UInt64(Self.maximum) else { return false }
        value = UInt32(truncatingIfNeeded: next)
        return true
    }
}

/// A short word compared with literals once it ends: a keyword, an attribute name, a unit, the
/// value of a Radiance `FORMAT=` line. It keeps the first and the last eight bytes and the
/// length, so words of up to 16 bytes compare exactly, and longer ones never match.
struct ShortWord: Sendable {
    /// The first eight bytes, packed big-endian (the first byte highest).
    var head: UInt64 = 0
    /// The last eight bytes, packed big-endian (the last byte lowest).
    var tail: UInt64 = 0
    /// Bytes appended, saturating.
    var count: UInt16 = 0

    init() {}

    mutating func append(_ byte: UInt8) {
        if count < 8 { head = head << 8 | UInt64(byte) }
        tail = tail << 8 | UInt64(byte)
        if count < UInt16.max { count &+= 1 }
    }

    var isEmpty: Bool { count == 0 }

    /// Whether the word is exactly `literal` (at most 16 ASCII bytes).
    func equals(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard Int(count) == length && length <= 16 else { return false }
        if length <= 8 { return tail == Self.pack(literal, from: 0, count: length) }
        return head == Self.pack(literal, from: 0, count: 8)
            && tail == Self.pack(literal, from: length &- 8, count: 8)
    }

    /// Whether the word ends with `literal` (at most 8 ASCII bytes).
    func hasSuffix(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard Int(count) >= length && length <= 8 && length > 0 else { return false }
        let mask: UInt64 = length == 8 ? ~0 : (1 << UInt64(length * 8)) &- 1
        return tail & mask == Self.pack(literal, from: 0, count: length)
    }

    /// `count` bytes of `literal` from `start`, packed big-endian like `tail`.
    static func pack(_ literal: StaticString, from start: Int, count: Int) -> UInt64 {
        literal.withUTF8Buffer { bytes in
            var packed: UInt64 = 0
            for (index, byte) in bytes.enumerated() where index >= start && index < start &+ count {
                packed = packed << 8 | UInt64(byte)
            }
            return packed
        }
    }
}

/// A decimal number in the CSS/SVG syntax, read one byte at a time: an optional sign, digits
/// with an optional fraction, and an optional exponent (`-1.5`, `.5`, `1e2`, `4.56E+2`).
///
/// The digits go into a 64-bit mantissa and a power of ten, so the value is exact whenever the
/// written number is a representable double of up to 19 significant digits (`1.23e2` is 123,
/// not 122.99999999999999). Digits beyond the 19th only move the power of ten.
struct DecimalNumber: Sendable {
    enum State: UInt8, Sendable {
        case start, sign, integer, point, leadingPoint, fraction, exponentMark, exponentSign, exponent
    }

    /// What a byte did to the number.
    enum Outcome: Sendable {
        /// The byte is part of the number.
        case accepted
        /// The number ended before this byte, which belongs to what follows.
        case ended
        /// The number ended before the previous byte, an `e` or `E` that turned out to start a
        /// unit (`1em`, `2ex`): both bytes belong to what follows.
        case endedBeforeExponentMark
        /// The bytes so far cannot be a number.
        case invalid
    }

    var state = State.start
    var negative = false
    var exponentNegative = false
    var mantissa: UInt64 = 0
    /// Power of ten from the fraction and from integer digits beyond the mantissa's capacity.
    var scale: Int32 = 0
    var exponent: Int32 = 0

    init() {}

    mutating func feed(_ byte: UInt8) -> Outcome {
        let isDigit = ASCII.isDigit(byte)
        let isExponentMark = byte == 0x65 || byte == 0x45  // e, E
        switch state {
        case .start:
            if byte == 0x2B || byte == 0x2D {  // + -
                negative = byte == 0x2D
                state = .sign
                return .accepted
            }
            fallthrough
        case .sign:
            if isDigit {
                addDigit(byte, fraction: false)
                state = .integer
                return .accepted
            }
            if byte == 0x2E {
                state = .leadingPoint
                return .accepted
            }
            return .invalid
        case .integer:
            if isDigit {
                addDigit(byte, fraction: false)
                return .accepted
            }
            if byte == 0x2E {
                state = .point
                return .accepted
            }
            if isExponentMark {
                state = .exponentMark
                return .accepted
            }
            return .ended
        case .point, .leadingPoint, .fraction:
            if isDigit {
                addDigit(byte, fraction: true)
                state = .fraction
                return .accepted
            }
            if state == .leadingPoint { return .invalid }  // "." or "-." alone
            if isExponentMark {
                state = .exponentMark
                return .accepted
            }
            return .ended  // "1." is accepted, as XML Schema's decimal and most readers do
        case .exponentMark:
            if isDigit {
                exponent = Int32(byte &- 0x30)
                state = .exponent
                return .accepted
            }
            if byte == 0x2B || byte == 0x2D {
                exponentNegative = byte == 0x2D
                state = .exponentSign
                return .accepted
            }
            return .endedBeforeExponentMark
        case .exponentSign:
            guard isDigit else { return .invalid }
            exponent = Int32(byte &- 0x30)
            state = .exponent
            return .accepted
        case .exponent:
            guard isDigit else { return .ended }
            // Saturates far beyond any double's range.
            if exponent < 100_000 { exponent = exponent &* 10 &+ Int32(byte &- 0x30) }
            return .accepted
        }
    }

    /// Whether the bytes so far form a complete number.
    var isComplete: Bool {
        switch state {
        case .integer, .point, .fraction, .exponent: true
        case .start, .sign, .leadingPoint, .exponentMark, .exponentSign: false
        }
    }

    mutating func addDigit(_ byte: UInt8, fraction: Bool) {
        if mantissa < 1_000_000_000_000_000_000 {
            mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
            if fraction { scale &-= 1 }
        } else if !fraction && scale < 100_000 {
            scale &+= 1
        }
    }

    /// The number's value; infinite when it exceeds a double's range.
    var value: Double {
        let magnitude: Double
        let power = scale &+ (exponentNegative ? -exponent : exponent)
        if mantissa == 0 || power < -400 {
            magnitude = 0
        } else if power > 400 {
            magnitude = .infinity
        } else if power >= 0 {
            magnitude = Double(mantissa) * Self.powerOfTen(power)
        } else {
            // Dividing by an exact power of ten rounds once: 0.1 is the double nearest 1/10.
            magnitude = Double(mantissa) / Self.powerOfTen(-power)
        }
        return negative ? -magnitude : magnitude
    }

    /// 10^exponent for 0 ≤ exponent ≤ 400, exact up to 10^22. At most nine multiplications.
    static func powerOfTen(_ exponent: Int32) -> Double {
        var result = 1.0
        var square = 10.0
        var remaining = exponent
        while remaining > 0 {
            if remaining & 1 == 1 { result *= square }
            square *= square
            remaining >>= 1
        }
        return result
    }
}
