/// Byte order for the builders' multi-byte integers.
public enum ByteOrder: Sendable {
    case littleEndian
    case bigEndian
}

extension Array where Element == UInt8 {
    /// Appends `value`'s low `width` bytes in `order`.
    public mutating func append(_ value: UInt64, width: Int, _ order: ByteOrder) {
        for index in 0..<width {
            let shift = order == .bigEndian ? (width - 1 - index) * 8 : index * 8
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    public mutating func append16(_ value: Int, _ order: ByteOrder) { append(UInt64(truncatingIfNeeded: value), width: 2, order) }
    public mutating func append24(_ value: Int, _ order: ByteOrder) { append(UInt64(truncatingIfNeeded: value), width: 3, order) }
    public mutating func append32(_ value: Int, _ order: ByteOrder) { append(UInt64(truncatingIfNeeded: value), width: 4, order) }
    public mutating func append64(_ value: UInt64, _ order: ByteOrder) { append(value, width: 8, order) }

    /// Appends the UTF-8 bytes of `text`.
    public mutating func append(ascii text: String) { append(contentsOf: Array(text.utf8)) }

    /// `count` bytes of a repeating, non-marker pattern (never 0xFF), standing in for pixel data.
    public mutating func appendFiller(_ count: Int, seed: UInt8 = 0x11) {
        var value = seed
        for _ in 0..<count {
            append(value)
            value = value &* 29 &+ 7
            if value == 0xFF { value = 0x10 }
        }
    }
}

/// Bytes of the ASCII text `text`.
public func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A small, seeded generator (SplitMix64), so random tests repeat exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}

/// CRC-32 as PNG uses it (ISO 3309 / ITU-T V.42), so built PNGs carry valid checksums.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
