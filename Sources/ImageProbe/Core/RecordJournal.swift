/// A fixed byte log of 120 bytes that a parser appends records to and reads back by offset,
/// for facts that come before the data saying which of them matter (HEIF's item properties
/// come before their associations). Numbers are stored as LEB128 varints, so typical records
/// take a few bytes. Every read is bounds-checked: past the end reads as 0. Reads are
/// mutating so that a parser's steps read the journal in place; a reader that isn't mutating
/// (HEIF's `recordValues`) reads a copy.
struct RecordJournal: Sendable {
    static var capacity: Int { JournalBytes.capacity }
    var storage = JournalBytes()
    /// Bytes written so far.
    var count: UInt8 = 0

    init() {}

    /// The byte at `offset`, or 0 past the written bytes.
    @inline(__always)
    mutating func byte(at offset: Int) -> UInt8 {
        guard offset >= 0 && offset < Int(count) else { return 0 }
        return storage[offset]
    }

    /// Appends `byte`; false when the journal is full.
    mutating func append(_ byte: UInt8) -> Bool {
        let offset = Int(count)
        guard offset < Self.capacity else { return false }
        storage[offset] = byte
        count &+= 1
        return true
    }

    /// Overwrites the byte at `offset`, which must have been written.
    mutating func set(_ byte: UInt8, at offset: Int) {
        guard offset >= 0 && offset < Int(count) else { return }
        storage[offset] = byte
    }
    /// Appends `value` as an unsigned LEB128 varint (1 to 5 bytes); false when full.
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
    @inline(__always)
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
