/// The facts beyond size and orientation that full mode gathers from the same headers: colour
/// (CICP, an ICC profile, HDR gain maps), resolution, interlacing and motion photos. A parser
/// that reports them keeps one in its state and hands it to its `ImageInfo`; dimensions-only
/// mode never sets them.
struct ExtraFacts: Hashable, Sendable {
    /// Dots per inch, rounded to the nearest integer; 0 when the file states none.
    var dpiX: UInt32 = 0
    var dpiY: UInt32 = 0
    /// CICP (ITU-T H.273), when the file declares it.
    var cicp: CICP? = nil
    /// An ICC profile is embedded.
    var hasICCProfile: Bool? = nil
    /// A gain map accompanies the image (Ultra HDR, ISO 21496-1, Apple's, AVIF `tmap`).
    var hasGainMap: Bool? = nil
    /// PNG Adam7, a GIF's first image interlaced.
    var isInterlaced: Bool? = nil
    /// An embedded video follows the image (Google and Samsung motion photos).
    var isMotionPhoto: Bool? = nil

    init() {}

    /// Takes `other`'s resolution.
    mutating func takeResolution(of other: ExtraFacts) {
        dpiX = other.dpiX
        dpiY = other.dpiY
    }

    /// Sets the resolution from `x` and `y` pixels per `micrometres` (1,000,000 for PNG's
    /// metre, BMP's too), rounded to the nearest dot per inch. Zero counts leave it unset: a
    /// resolution of 0 says nothing.
    mutating func setResolution(x: UInt32, y: UInt32, perMicrometres micrometres: UInt64) {
        guard x != 0, y != 0, micrometres != 0 else { return }
        dpiX = Self.dotsPerInch(UInt64(x), per: micrometres)
        dpiY = Self.dotsPerInch(UInt64(y), per: micrometres)
    }

    /// Sets the resolution from rationals (TIFF, EXIF: numerator / denominator dots per
    /// `micrometres`, 25,400 for an inch, 10,000 for a centimetre). A zero term leaves it unset.
    mutating func setResolution(
        x: (numerator: UInt32, denominator: UInt32), y: (numerator: UInt32, denominator: UInt32), perMicrometres micrometres: UInt64
    ) {
        guard x.numerator != 0, x.denominator != 0, y.numerator != 0, y.denominator != 0, micrometres != 0 else { return }
        dpiX = Self.dotsPerInch(UInt64(x.numerator), per: UInt64(x.denominator) &* micrometres)
        dpiY = Self.dotsPerInch(UInt64(y.numerator), per: UInt64(y.denominator) &* micrometres)
    }

    /// `count` dots per `micrometres` µm in dots per inch (25,400 µm), rounded half up and
    /// saturating. `count` < 2^32 and `micrometres` < 2^52 (a 32-bit denominator times a
    /// metre): neither the product nor the sum below can overflow 64 bits.
    static func dotsPerInch(_ count: UInt64, per micrometres: UInt64) -> UInt32 {
        guard micrometres != 0 else { return 0 }
        let scaled = count &* 25_400
        return UInt32(clamping: (scaled &+ micrometres / 2) / micrometres)
    }
}

/// A colour description in the code points of ITU-T H.273 (CICP), as AVIF and HEIF `colr`
/// (`nclx`), PNG `cICP` and JPEG XL's enumerated colour encoding state it.
public struct CICP: Hashable, Sendable {
    /// `ColourPrimaries`: 1 BT.709/sRGB, 9 BT.2020, 12 Display P3, ...
    public var colourPrimaries: UInt8
    /// `TransferCharacteristics`: 13 sRGB, 16 PQ (SMPTE ST 2084), 18 HLG, ...
    public var transferCharacteristics: UInt8
    /// `MatrixCoefficients`: 0 identity (RGB), 1 BT.709, 6 BT.601, 9 BT.2020, ...
    public var matrixCoefficients: UInt8
    /// `VideoFullRangeFlag`.
    public var isFullRange: Bool

    /// A colour description from its four code points.
    public init(colourPrimaries: UInt8, transferCharacteristics: UInt8, matrixCoefficients: UInt8, isFullRange: Bool) {
        self.colourPrimaries = colourPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
        self.isFullRange = isFullRange
    }

    /// A transfer meant for HDR display: PQ (16) or HLG (18).
    public var hasHDRTransfer: Bool { transferCharacteristics == 16 || transferCharacteristics == 18 }
}

/// Dots per inch, horizontally and vertically.
public struct Resolution: Hashable, Sendable {
    /// Horizontal dots per inch, rounded to the nearest whole dot.
    public var x: Int
    /// Vertical dots per inch, rounded to the nearest whole dot.
    public var y: Int

    /// A resolution from its horizontal and vertical dots per inch.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
