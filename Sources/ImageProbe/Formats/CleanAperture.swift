/// A HEIF clean aperture (ISO/IEC 14496-12 §12.1.4 `clap`): the part of the decoded image to
/// show. It applies before rotation and mirroring (MIAF §7.3.6.7).
public struct CleanAperture: Hashable, Sendable {
    /// A crop in stored pixel coordinates.
    public struct Rectangle: Hashable, Sendable {
        /// The left edge, in stored pixels.
        public var x: Int
        /// The top edge, in stored pixels.
        public var y: Int
        /// The width in pixels.
        public var width: Int
        /// The height in pixels.
        public var height: Int

        /// A rectangle with the given origin and size.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The crop's width as stored: the numerator of a fraction of pixels.
    public var widthN: UInt32
    /// The crop's width as stored: the denominator.
    public var widthD: UInt32
    /// The crop's height as stored: the numerator.
    public var heightN: UInt32
    /// The crop's height as stored: the denominator.
    public var heightD: UInt32
    /// The crop centre's horizontal offset from the image centre: the numerator, signed.
    public var horizontalOffsetN: Int32
    /// The crop centre's horizontal offset: the denominator.
    public var horizontalOffsetD: UInt32
    /// The crop centre's vertical offset from the image centre: the numerator, signed.
    public var verticalOffsetN: Int32
    /// The crop centre's vertical offset: the denominator.
    public var verticalOffsetD: UInt32

    /// The stored image's width, against which the crop is placed.
    public var imageWidth: UInt32
    /// The stored image's height, against which the crop is placed.
    public var imageHeight: UInt32

    /// The crop's width in pixels, when the fraction is a whole number no larger than the
    /// image: the width a decoder shows. Nil otherwise.
    public var width: Int? { Self.whole(widthN, widthD, within: imageWidth) }

    /// The crop's height in pixels, as `width`.
    public var height: Int? { Self.whole(heightN, heightD, within: imageHeight) }

    /// The crop rectangle within the stored image. Nil when its origin is not a whole pixel
    /// inside the image (MIAF requires one); `width`, `height` and the fractions remain.
    public var rectangle: Rectangle? {
        guard let width, let height,
            let x = Self.origin(Int64(imageWidth), Int64(width), horizontalOffsetN, horizontalOffsetD),
            let y = Self.origin(Int64(imageHeight), Int64(height), verticalOffsetN, verticalOffsetD)
        else { return nil }
        return Rectangle(x: x, y: y, width: width, height: height)
    }

    /// A clean aperture with the `clap` box's eight fields, as stored, for an image of the
    /// given size.
    public init(
        widthN: UInt32, widthD: UInt32, heightN: UInt32, heightD: UInt32,
        horizontalOffsetN: Int32, horizontalOffsetD: UInt32, verticalOffsetN: Int32, verticalOffsetD: UInt32,
        imageWidth: Int, imageHeight: Int
    ) {
        self.widthN = widthN
        self.widthD = widthD
        self.heightN = heightN
        self.heightD = heightD
        self.horizontalOffsetN = horizontalOffsetN
        self.horizontalOffsetD = horizontalOffsetD
        self.verticalOffsetN = verticalOffsetN
        self.verticalOffsetD = verticalOffsetD
        self.imageWidth = UInt32(clamping: imageWidth)
        self.imageHeight = UInt32(clamping: imageHeight)
    }

    /// The eight numbers alone, as `ImageInfo` stores them: the image size is the info's own.
    struct Fractions: Hashable, Sendable {
        var widthN, widthD, heightN, heightD: UInt32
        var horizontalOffsetN: Int32, horizontalOffsetD: UInt32
        var verticalOffsetN: Int32, verticalOffsetD: UInt32

        init(
            widthN: UInt32, widthD: UInt32, heightN: UInt32, heightD: UInt32,
            horizontalOffsetN: Int32, horizontalOffsetD: UInt32, verticalOffsetN: Int32, verticalOffsetD: UInt32
        ) {
            (self.widthN, self.widthD, self.heightN, self.heightD) = (widthN, widthD, heightN, heightD)
            (self.horizontalOffsetN, self.horizontalOffsetD) = (horizontalOffsetN, horizontalOffsetD)
            (self.verticalOffsetN, self.verticalOffsetD) = (verticalOffsetN, verticalOffsetD)
        }
    }

    var fractions: Fractions {
        Fractions(
            widthN: widthN, widthD: widthD, heightN: heightN, heightD: heightD,
            horizontalOffsetN: horizontalOffsetN, horizontalOffsetD: horizontalOffsetD,
            verticalOffsetN: verticalOffsetN, verticalOffsetD: verticalOffsetD)
    }

    init(_ fractions: Fractions, imageWidth: Int, imageHeight: Int) {
        self.init(
            widthN: fractions.widthN, widthD: fractions.widthD, heightN: fractions.heightN, heightD: fractions.heightD,
            horizontalOffsetN: fractions.horizontalOffsetN, horizontalOffsetD: fractions.horizontalOffsetD,
            verticalOffsetN: fractions.verticalOffsetN, verticalOffsetD: fractions.verticalOffsetD,
            imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// n / d when it is a positive whole number no larger than `limit`. Saturates at `Int.max`
    /// where `Int` is 32 bits (SPEC.md §1.10).
    static func whole(_ n: UInt32, _ d: UInt32, within limit: UInt32) -> Int? {
        guard d != 0, n % d == 0, n / d > 0, n / d <= limit else { return nil }
        return Int(clamping: n / d)
    }

    /// The crop's first pixel: the clean centre is offN/offD + (size − 1)/2, so the first
    /// pixel is offN/offD + (size − cropSize)/2, which must be a whole number that keeps the
    /// crop inside the image. Computed as (2·offN + (size − cropSize)·offD) / (2·offD) in
    /// 64-bit arithmetic that reports overflow instead of trapping.
    static func origin(_ size: Int64, _ cropSize: Int64, _ offsetN: Int32, _ offsetD: UInt32) -> Int? {
        guard offsetD != 0, cropSize <= size else { return nil }
        let slack = size - cropSize  // both in 0...2^32 − 1
        let (scaled, overflow) = slack.multipliedReportingOverflow(by: Int64(offsetD))
        guard !overflow else { return nil }
        let (numerator, overflow2) = scaled.addingReportingOverflow(2 * Int64(offsetN))
        let denominator = 2 * Int64(offsetD)
        guard !overflow2, numerator % denominator == 0 else { return nil }
        let origin = numerator / denominator
        guard origin >= 0, origin + cropSize <= size else { return nil }
        return Int(clamping: origin)
    }
}
