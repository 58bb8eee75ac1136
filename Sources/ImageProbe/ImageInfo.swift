/// What the scanner learned about an image from its header.
public struct ImageInfo: Hashable, Sendable {
    /// The file format.
    public var format: ImageFormat

    /// Stored width in pixels, before any orientation is applied.
    public var width: Int

    /// Stored height in pixels, before any orientation is applied.
    public var height: Int

    /// The EXIF orientation the file carries, or nil when it carries none (or an invalid value).
    /// Always nil in dimensions-only mode.
    public var orientation: Orientation?

    /// Bits per sample as the header states it (JPEG precision, PNG bit depth, TIFF
    /// BitsPerSample); bits per pixel for formats that only state that (BMP, GIF's palette).
    /// Nil when the header doesn't say within the bytes the scanner reads.
    public var bitDepth: Int?

    /// Whether the image has an alpha channel, where the header says so.
    public var hasAlpha: Bool?

    /// JPEG progressive coding, PNG Adam7 interlacing; nil when the header doesn't say.
    public var isProgressive: Bool?

    /// Whether the file holds an animation (APNG `acTL`, WebP VP8X animation flag).
    public var isAnimated: Bool?

    /// Number of frames or entries where the header states it (APNG frames).
    public var frameCount: Int?

    /// HEIF and AVIF: the primary item's clean aperture (`clap`), the crop a decoder applies
    /// before the orientation. Nil when the file has none.
    public var cleanAperture: CleanAperture? = nil

    /// SVG: the root element's `width`, `height` and `viewBox` as written, from which `width`
    /// and `height` were computed.
    public var svg: SVGSize? = nil

    /// Why the scanner answered before full mode had settled everything, or nil for a
    /// complete answer: the input ended (`truncated`), a limit stopped the search
    /// (`limitExceeded`), or a structure after the size was corrupt (`malformed`). The format
    /// and size are certain; metadata past that point (such as an orientation) may be missing.
    public var partialReason: ScanFailure? = nil

    /// Whether the answer is partial: see `partialReason`.
    @inlinable
    public var isPartial: Bool { partialReason != nil }

    /// Creates an info value; fields not given are unknown.
    @inlinable
    public init(format: ImageFormat, width: Int, height: Int, orientation: Orientation? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
    }

    /// Width as displayed: after the clean aperture's crop (HEIF, AVIF), then the orientation.
    @inlinable
    public var displayWidth: Int {
        orientation?.swapsWidthAndHeight == true ? croppedHeight : croppedWidth
    }

    /// Height as displayed: after the clean aperture's crop (HEIF, AVIF), then the orientation.
    @inlinable
    public var displayHeight: Int {
        orientation?.swapsWidthAndHeight == true ? croppedWidth : croppedHeight
    }

    @inlinable
    var croppedWidth: Int { cleanAperture?.width ?? width }

    @inlinable
    var croppedHeight: Int { cleanAperture?.height ?? height }

    /// The media type for `format`.
    @inlinable
    public var mimeType: StaticString { format.mimeType }
}

#if !hasFeature(Embedded)
extension ImageInfo: CustomStringConvertible {
    /// "jpeg 4032x3024, orientation 6, 8-bit, progressive".
    public var description: String {
        var text = "\(format.name) \(width)x\(height)"
        if let orientation { text += ", orientation \(orientation.rawValue)" }
        if let bitDepth { text += ", \(bitDepth)-bit" }
        if hasAlpha == true { text += ", alpha" }
        if isProgressive == true { text += format == .png ? ", interlaced" : ", progressive" }
        if isAnimated == true { text += ", animated" }
        if let frameCount { text += ", \(frameCount) frames" }
        if let partialReason { text += ", partial (\(partialReason.code.name))" }
        return text
    }
}
#endif
