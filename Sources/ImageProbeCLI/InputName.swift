/// A path or URL as the user gave it: bytes, from `argv` or `readdir`, to `open` (SPEC.md §4).
/// A name that isn't UTF-8 opens itself; decoding it into a `String` and back would not.
struct InputName: Hashable, Sendable {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ text: String) { bytes = Array(text.utf8) }

    /// The name as text, invalid UTF-8 shown as U+FFFD.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the bytes are UTF-8. (Decoding repairs invalid UTF-8, so a name that doesn't
    /// survive it unchanged isn't; `String(validating:as:)` would say so directly, but needs
    /// macOS 15 / iOS 18.)
    var isUTF8: Bool { text.utf8.elementsEqual(bytes) }

    /// `self` followed by "/" (unless it ends with one) and `name`.
    func appending(_ name: [UInt8]) -> InputName {
        InputName(bytes.last == 0x2F ? bytes + name : bytes + [0x2F] + name)
    }

    /// Calls `body` with the name as a NUL-terminated C string.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The name for a terminal or a line-oriented reader (text output, `--format`'s `%f`,
    /// messages): nothing in it can move the cursor, ring, start an escape sequence, or break
    /// the line. Escaped as `ls -b` does: `\\`, `\n`, `\t`, `\r`, `\xHH` for other C0 and C1
    /// controls, DEL and bytes that aren't UTF-8, and `\u2028`, `\u2029` for the Unicode line
    /// and paragraph separators.
    var escaped: String { Self.escape(bytes) }

    static func escape(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        let hex = Array("0123456789ABCDEF")
        func byteEscape(_ byte: UInt8) { out += "\\x" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)]) }
        while index < bytes.count {
            let byte = bytes[index]
            guard let (scalar, length) = decodeScalar(bytes, at: index) else {
                byteEscape(byte)
                index += 1
                continue
            }
            switch scalar {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0..<0x20, 0x7F: byteEscape(UInt8(scalar))
            case 0x80..<0xA0:
                // A C1 control (U+0085 NEL, U+009B CSI...), shown by its two UTF-8 bytes.
                for offset in 0..<length { byteEscape(bytes[index + offset]) }
            case 0x2028: out += "\\u2028"
            case 0x2029: out += "\\u2029"
            default: out += String(decoding: bytes[index..<(index + length)], as: UTF8.self)
            }
            index += length
        }
        return out
    }

    /// The Unicode scalar starting at `index` and its length in bytes, or nil where the bytes
    /// there aren't well-formed UTF-8 (overlong forms, surrogates and values past U+10FFFF
    /// included).
    static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (UInt32, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        switch length {
        case 3 where value < 0x800 || (0xD800...0xDFFF).contains(value): return nil
        case 4 where value < 0x10000 || value > 0x10FFFF: return nil
        default: return (value, length)
        }
    }

    /// The bytes percent-encoded where they aren't printable ASCII, and `%` itself: for JSON's
    /// and CSV's `pathBytes`, when the name isn't UTF-8.
    var percentEncoded: String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for byte in bytes {
            if byte > 0x20 && byte < 0x7F && byte != 0x25 {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
