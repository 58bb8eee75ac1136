/// How the stored pixels must be transformed for display, in EXIF numbering (1 to 8).
///
/// The names say what a viewer does to the stored image to show it upright. Values 5 to 8
/// swap width and height.
public struct Orientation: RawRepresentable, Hashable, Sendable {
    /// The EXIF Orientation value, 1 to 8.
    public let rawValue: UInt8

    /// Returns nil for values outside 1...8: EXIF defines no others.
    public init?(rawValue: UInt8) {
        guard rawValue >= 1 && rawValue <= 8 else { return nil }
        self.rawValue = rawValue
    }

    init(unchecked rawValue: UInt8) { self.rawValue = rawValue }

    /// 1: shown as stored.
    public static let identity = Orientation(unchecked: 1)
    /// 2: mirrored left to right.
    public static let mirrorHorizontal = Orientation(unchecked: 2)
    /// 3: rotated 180°.
    public static let rotate180 = Orientation(unchecked: 3)
    /// 4: mirrored top to bottom.
    public static let mirrorVertical = Orientation(unchecked: 4)
    /// 5: mirrored about the top-left to bottom-right diagonal.
    public static let transpose = Orientation(unchecked: 5)
    /// 6: rotated 90° clockwise.
    public static let rotate90Clockwise = Orientation(unchecked: 6)
    /// 7: mirrored about the top-right to bottom-left diagonal.
    public static let transverse = Orientation(unchecked: 7)
    /// 8: rotated 90° anticlockwise.
    public static let rotate90Anticlockwise = Orientation(unchecked: 8)

    /// Whether the displayed image has width and height exchanged.
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }
}
