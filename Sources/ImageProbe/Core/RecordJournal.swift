/// A fixed byte log of 120 bytes that a parser appends records to and reads back by offset,
/// for facts that come before the data saying which of them matter (HEIF's item properties
/// come before their associations). Numbers are stored as LEB128 varints, so typical records
/// take a few bytes. Every read is bounds-checked: past the end reads as 0. Reads are
/// mutating so that a parser's steps read the journal in place; a reader that isn't mutating
/// (HEIF's `recordValues`) reads a copy.
@usableFromInline
struct RecordJournal: Sendable {
    @usableFromInline static var capacity: Int { 120 }
    /// 120 bytes in 4-byte words, so that a parser holding the journal needs no 8-byte
    /// alignment (HEIF's packs into the slot without padding).
    @usableFromInline var storage: (Words15, Words15)
    /// Bytes written so far.
    @usableFromInline var count: UInt8

    @inlinable
    init() {
        let zero: Words15 = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        storage = (zero, zero)
        count = 0
    }

    /// The byte at `offset`, or 0 past the written bytes.
    @inlinable @inline(__always)
    mutating func byte(at offset: Int) -> UInt8 {
        guard offset >= 0 && offset < Int(count) else { return 0 }
        return withUnsafeMutableBytes(of: &storage) { bytes in
            // SAFETY: 0 <= offset < count <= capacity, the storage's size.
            bytes.load(fromByteOffset: offset, as: UInt8.self)
        }
    }

    /// Appends `byte`; false when the journal is full.
    @inlinable
    mutating func append(_ byte: UInt8) -> Bool {
        let offset = Int(count)
        guard offset < Self.capacity else { return false }
        withUnsafeMutableBytes(of: &storage) { bytes in
            // SAFETY: offset < capacity, the storage's size.
            bytes.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
        }
        count &+= 1
        return true
    }

    /// Overwrites the byte at `offset`, which must have been written.
    @inlinable
    mutating func set(_ byte: UInt8, at offset: Int) {
        guard offset >= 0 && offset < Int(count) else { return }
        withUnsafeMutableBytes(of: &storage) { bytes in
            // SAFETY: 0 <= offset < count <= capacity, the storage's size.
            bytes.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
        }
    }

    /// Appends `value` as an unsigned LEB128 varint (1 to 5 bytes); false when full.
    @inlinable
    mutating func appendVarint(_ value: UInt32) -> Bool {
        var rest = value
        while rest >= 0x80 {
            guard append(UInt8(truncatingIfNeeded: rest) | 0x80) else { return false }
            rest >>= 7
        }
        return append(UInt8(truncatingIfNeeded: rest))
    }

    /// The varint at `offset`, advancing `offset` past it. At most five bytes are read, so a
    /// damaged journal can't loop; past the end reads as 0.
    @inlinable @inline(__always)
    mutating func varint(at offset: inout Int) -> UInt32 {
        let first = byte(at: offset)
        offset &+= 1
        if first < 0x80 { return UInt32(first) }
        var value = UInt32(first & 0x7F)
        var shift: UInt32 = 7
        while shift < 35 {
            let byte = self.byte(at: offset)
            offset &+= 1
            value |= UInt32(truncatingIfNeeded: UInt64(byte & 0x7F) << UInt64(shift))
            if byte & 0x80 == 0 { break }
            shift &+= 7
        }
        return value
    }
}

/// Sixty bytes.
@usableFromInline
typealias Words15 = (
    UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
)
