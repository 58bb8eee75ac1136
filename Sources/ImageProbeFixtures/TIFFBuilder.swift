/// One IFD entry with its value stored inline.
public struct TIFFEntry: Sendable {
    public var tag: Int
    public var type: Int
    public var count: Int
    public var value: UInt64

    public init(tag: Int, type: Int, count: Int = 1, value: UInt64) {
        self.tag = tag
        self.type = type
        self.count = count
        self.value = value
    }

    public static let short = 3
    public static let long = 4
    public static let long8 = 16

    public static func width(_ value: Int, type: Int = short) -> TIFFEntry { TIFFEntry(tag: 0x100, type: type, value: UInt64(value)) }
    public static func height(_ value: Int, type: Int = short) -> TIFFEntry { TIFFEntry(tag: 0x101, type: type, value: UInt64(value)) }
    public static func bitsPerSample(_ value: Int) -> TIFFEntry { TIFFEntry(tag: 0x102, type: short, value: UInt64(value)) }
    public static func orientation(_ value: Int) -> TIFFEntry { TIFFEntry(tag: 0x112, type: short, value: UInt64(value)) }
    /// An orientation of any type: BYTE 1, SBYTE 6, UNDEFINED 7, SSHORT 8, SLONG 9, … (negative
    /// values in two's complement).
    public static func orientation(_ value: Int, type: Int) -> TIFFEntry {
        TIFFEntry(tag: 0x112, type: type, value: UInt64(bitPattern: Int64(value)))
    }
    /// An entry the scanner doesn't look at (Software, as an ASCII offset).
    public static func filler(tag: Int = 0x131) -> TIFFEntry { TIFFEntry(tag: tag, type: 2, count: 20, value: 8) }
}

/// Builds a TIFF structure: a whole TIFF file, or the body of an EXIF block.
public struct TIFFBuilder: Sendable {
    public var byteOrder: ByteOrder
    public var bigTIFF: Bool
    public var entries: [TIFFEntry]
    /// Bytes between the header and IFD0, standing in for pixel data stored first.
    public var gapBeforeIFD: Int
    /// A second directory (a thumbnail's IFD1), linked from IFD0.
    public var ifd1Entries: [TIFFEntry]?
    /// Bytes appended after the directories (a thumbnail, pixel data).
    public var trailing: [UInt8]

    public init(
        byteOrder: ByteOrder = .littleEndian, bigTIFF: Bool = false, entries: [TIFFEntry],
        gapBeforeIFD: Int = 0, ifd1Entries: [TIFFEntry]? = nil, trailing: [UInt8] = []
    ) {
        self.byteOrder = byteOrder
        self.bigTIFF = bigTIFF
        self.entries = entries
        self.gapBeforeIFD = gapBeforeIFD
        self.ifd1Entries = ifd1Entries
        self.trailing = trailing
    }

    /// Offset of IFD0 from the start of the structure.
    public var ifd0Offset: Int { (bigTIFF ? 16 : 8) + gapBeforeIFD }

    /// Bytes from the start to the end of IFD0's entries.
    public var ifd0End: Int { ifd0Offset + countWidth + entries.count * entryWidth }

    /// Bytes from the start through the entry at `index` of IFD0.
    public func endOfEntry(_ index: Int) -> Int { ifd0Offset + countWidth + (index + 1) * entryWidth }

    private var countWidth: Int { bigTIFF ? 8 : 2 }
    private var entryWidth: Int { bigTIFF ? 20 : 12 }
    private var offsetWidth: Int { bigTIFF ? 8 : 4 }

    public func build() -> [UInt8] {
        var bytes: [UInt8] = byteOrder == .littleEndian ? ascii("II") : ascii("MM")
        if bigTIFF {
            bytes.append16(43, byteOrder)
            bytes.append16(8, byteOrder)
            bytes.append16(0, byteOrder)
            bytes.append64(UInt64(ifd0Offset), byteOrder)
        } else {
            bytes.append16(42, byteOrder)
            bytes.append32(ifd0Offset, byteOrder)
        }
        bytes.appendFiller(gapBeforeIFD)
        let ifd1Offset = ifd0End + offsetWidth
        appendDirectory(entries, next: ifd1Entries == nil ? 0 : ifd1Offset, to: &bytes)
        if let ifd1Entries { appendDirectory(ifd1Entries, next: 0, to: &bytes) }
        bytes.append(contentsOf: trailing)
        return bytes
    }

    private func appendDirectory(_ entries: [TIFFEntry], next: Int, to bytes: inout [UInt8]) {
        if bigTIFF { bytes.append64(UInt64(entries.count), byteOrder) } else { bytes.append16(entries.count, byteOrder) }
        for entry in entries {
            bytes.append16(entry.tag, byteOrder)
            bytes.append16(entry.type, byteOrder)
            if bigTIFF { bytes.append64(UInt64(entry.count), byteOrder) } else { bytes.append32(entry.count, byteOrder) }
            // Inline values are left-justified in the value field, in the file's byte order.
            let valueWidth: Int
            switch entry.type {
            case 1, 6, 7: valueWidth = 1  // BYTE, SBYTE, UNDEFINED
            case TIFFEntry.short, 8: valueWidth = 2  // SHORT, SSHORT
            case TIFFEntry.long8, 17: valueWidth = 8  // LONG8, SLONG8
            default: valueWidth = 4
            }
            var field: [UInt8] = []
            field.append(entry.value, width: min(valueWidth, offsetWidth), byteOrder)
            while field.count < offsetWidth { field.append(0) }
            bytes.append(contentsOf: field)
        }
        if bigTIFF { bytes.append64(UInt64(next), byteOrder) } else { bytes.append32(next, byteOrder) }
    }
}
