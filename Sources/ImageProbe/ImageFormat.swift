/// An image file format, named in lowercase (`jpeg`, `png`, `heif`, ...).
///
/// A struct with static members rather than a public enum, so that adding a format is not a
/// source-breaking change for code that switches over formats.
public struct ImageFormat: Hashable, Sendable {
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case jpeg = 1, png, gif, bmp, webp, tiff
    }

    @usableFromInline let kind: Kind

    @inlinable
    init(_ kind: Kind) { self.kind = kind }

    /// JPEG (JFIF, Exif, MPO and the other JPEG interchange formats).
    public static let jpeg = ImageFormat(.jpeg)
    /// PNG, including APNG and Apple's CgBI variant.
    public static let png = ImageFormat(.png)
    /// GIF 87a and 89a.
    public static let gif = ImageFormat(.gif)
    /// Windows and OS/2 bitmap.
    public static let bmp = ImageFormat(.bmp)
    /// WebP: lossy (VP8), lossless (VP8L) and extended (VP8X).
    public static let webp = ImageFormat(.webp)
    /// TIFF and BigTIFF.
    public static let tiff = ImageFormat(.tiff)

    /// The lowercase name used in SPEC.md and in the CLI's JSON output.
    public var name: StaticString {
        switch kind {
        case .jpeg: "jpeg"
        case .png: "png"
        case .gif: "gif"
        case .bmp: "bmp"
        case .webp: "webp"
        case .tiff: "tiff"
        }
    }

    /// The media type to serve this format with.
    public var mimeType: StaticString {
        switch kind {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .bmp: "image/bmp"
        case .webp: "image/webp"
        case .tiff: "image/tiff"
        }
    }

    /// Every format the scanner can report, in a stable order.
    public static var all: [ImageFormat] { [.jpeg, .png, .gif, .bmp, .webp, .tiff] }
}

#if !hasFeature(Embedded)
extension ImageFormat: CustomStringConvertible {
    public var description: String { name.description }
}
#endif
