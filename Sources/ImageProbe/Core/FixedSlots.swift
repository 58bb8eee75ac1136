/// Eight values stored in line: a fixed-capacity table without pointers or heap, for parser
/// state that must remember a few records (HEIF item properties). Indexing goes through a
/// switch, so an index out of range is caught by the assertion in debug builds and clamped
/// to the last slot in release builds: never a trap, never a stray write.
@usableFromInline
struct Slots8<Element: Sendable>: Sendable {
    @usableFromInline var e0, e1, e2, e3, e4, e5, e6, e7: Element

    @usableFromInline static var capacity: Int { 8 }

    @inlinable
    init(repeating value: Element) {
        (e0, e1, e2, e3, e4, e5, e6, e7) = (value, value, value, value, value, value, value, value)
    }

    @inlinable
    subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < 8)
            switch index {
            case 0: return e0
            case 1: return e1
            case 2: return e2
            case 3: return e3
            case 4: return e4
            case 5: return e5
            case 6: return e6
            default: return e7
            }
        }
        set {
            assert(index >= 0 && index < 8)
            switch index {
            case 0: e0 = newValue
            case 1: e1 = newValue
            case 2: e2 = newValue
            case 3: e3 = newValue
            case 4: e4 = newValue
            case 5: e5 = newValue
            case 6: e6 = newValue
            default: e7 = newValue
            }
        }
    }
}

/// Sixteen values in line: two `Slots8`.
@usableFromInline
struct Slots16<Element: Sendable>: Sendable {
    @usableFromInline var low: Slots8<Element>
    @usableFromInline var high: Slots8<Element>

    @usableFromInline static var capacity: Int { 16 }

    @inlinable
    init(repeating value: Element) {
        low = Slots8(repeating: value)
        high = Slots8(repeating: value)
    }

    @inlinable
    subscript(index: Int) -> Element {
        get { index < 8 ? low[index] : high[index &- 8] }
        set {
            if index < 8 { low[index] = newValue } else { high[index &- 8] = newValue }
        }
    }
}
