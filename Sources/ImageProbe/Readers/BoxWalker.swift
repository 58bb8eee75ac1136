/// Boxes as ISO/IEC 14496-12 §4.2 lays them out, and as JPEG 2000 (ISO/IEC 15444-1 I.4) and
/// JPEG XL's container (ISO/IEC 18181-2) reuse them: a 32-bit size of the whole box and a
/// type; a size of 1 puts a 64-bit size after the type, and a size of 0 means the box runs to
/// the end of its container (at the top level, of the file).
///
/// Its static functions decode headers for any box walk; an instance keeps what a nested walk
/// (ISOBMFF's) must remember, so that the parser keeps only what boxes say: where each open container ends (a stack indexed by depth, the file being depth 0),
/// where the box being read ends, how many boxes and list entries were read (which
/// `ScanOptions.maxEntries` bounds) and the entries left in the list box being read.
struct BoxWalker: Sendable {
    /// How deep containers nest in the deepest walk (HEIF's `moov/trak/mdia/minf/stbl`).
    static var depthCapacity: Int { 5 }

    /// The ends of the containers open at depths 1 to 5.
    var ends: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    /// Where the box being read ends.
    var boxEnd: UInt64 = 0
    /// Boxes, and entries of list boxes, read so far.
    var boxes: UInt32 = 0
    /// Entries left in the list box being read (`ipma`, `stts`).
    var entriesLeft: UInt32 = 0
    /// The type of the box whose 64-bit size is being read.
    var pendingType: UInt32 = 0

    init() {}

    /// What a box header's 32-bit size says.
    enum Size: Sendable {
        /// The payload's length.
        case payload(UInt64)
        /// A 64-bit size follows the type.
        case large
        /// The box runs to the end of its container.
        case toEnd
        /// Smaller than its own header: no box can be that small.
        case tooSmall
    }

    @inline(__always)
    static func size(_ value: UInt32) -> Size {
        switch value {
        case 0: .toEnd
        case 1: .large
        case 2..<8: .tooSmall
        default: .payload(UInt64(value &- 8))
        }
    }

    /// The payload's length for a 64-bit size, or nil when that is smaller than its header.
    static func largePayload(_ value: UInt64) -> UInt64? {
        value >= 16 ? value &- 16 : nil
    }

    /// The end of a box at `start` with the 64-bit size `value`, or nil when the size is
    /// smaller than the header or the end would be past 2^64.
    static func largeEnd(_ value: UInt64, start: UInt64) -> UInt64? {
        guard value >= 16, value <= UInt64.max &- start else { return nil }
        return start &+ value
    }

    /// Counts a box or a list entry; false once there are more than `limit`.
    @inline(__always)
    mutating func count(limit: UInt32) -> Bool {
        Self.count(&boxes, limit: limit)
    }

    /// Counts a box in `boxes`, for walks that keep no stack (JPEG 2000's and JPEG XL's top
    /// level); false once there are more than `limit`.
    @inline(__always)
    static func count(_ boxes: inout UInt32, limit: UInt32) -> Bool {
        boxes &+= 1
        return boxes <= limit
    }

    /// The end of the container open at `depth` (1 to `depthCapacity`; 0 past them).
    @inline(__always)
    func end(atDepth depth: Int) -> UInt64 {
        switch depth {
        case 1: ends.0
        case 2: ends.1
        case 3: ends.2
        case 4: ends.3
        case 5: ends.4
        default: 0
        }
    }

    /// Opens a container at `depth` that ends at `end`. Callers check `depth` against
    /// `maxDepth` first; depths past `depthCapacity` are ignored.
    @inline(__always)
    mutating func open(atDepth depth: Int, end: UInt64) {
        switch depth {
        case 1: ends.0 = end
        case 2: ends.1 = end
        case 3: ends.2 = end
        case 4: ends.3 = end
        case 5: ends.4 = end
        default: break
        }
    }

    /// The step to the box header at `start`, reading from `position`; nil when `start` is
    /// behind `position` (the box overlaps the one before).
    @inline(__always)
    static func header(at start: UInt64, from position: UInt64) -> Step? {
        guard start >= position else { return nil }
        return start == position ? .read(8) : .skipThenRead(start &- position, 8)
    }
}
