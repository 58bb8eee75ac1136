/// An image file format, named in lowercase (`jpeg`, `png`, `heif`, ...).
///
/// A struct with static members rather than a public enum, so that adding a format is not a
/// source-breaking change for code that switches over formats.
public struct ImageFormat: Hashable, Sendable {
    @usableFromInline
    enum Kind: UInt8, Sendable, CaseIterable {
        case jpeg = 1, png, gif, bmp, webp, tiff
        case heif, avif, jxl, jp2, j2k, ico, cur, psd, tga, pnm, pfm, qoi, svg
        case dds, ktx, ktx2, icns, exr, hdr, pcx, sgi, sun, xbm
        case eps, xpm, fits, dcx, msp, blp, pvr, pkm, astc, farbfeld, vtf, ilbm, aseprite
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
    /// HEIF image files other than AVIF (HEIC from phones, among others).
    public static let heif = ImageFormat(.heif)
    /// AVIF: HEIF with AV1-coded images.
    public static let avif = ImageFormat(.avif)
    /// JPEG XL, bare codestream or ISOBMFF container.
    public static let jxl = ImageFormat(.jxl)
    /// JPEG 2000 boxed file (JP2, JPX).
    public static let jp2 = ImageFormat(.jp2)
    /// JPEG 2000 raw codestream.
    public static let j2k = ImageFormat(.j2k)
    /// Windows icon.
    public static let ico = ImageFormat(.ico)
    /// Windows cursor.
    public static let cur = ImageFormat(.cur)
    /// Photoshop document (PSD, and PSB, its large-document version).
    public static let psd = ImageFormat(.psd)
    /// Truevision TGA.
    public static let tga = ImageFormat(.tga)
    /// Netpbm PBM, PGM, PPM (P1–P6) and PAM (P7).
    public static let pnm = ImageFormat(.pnm)
    /// Portable float map (PF, Pf).
    public static let pfm = ImageFormat(.pfm)
    /// Quite OK Image format.
    public static let qoi = ImageFormat(.qoi)
    /// Scalable Vector Graphics.
    public static let svg = ImageFormat(.svg)
    /// DirectDraw Surface.
    public static let dds = ImageFormat(.dds)
    /// Khronos texture, version 1.
    public static let ktx = ImageFormat(.ktx)
    /// Khronos texture, version 2.
    public static let ktx2 = ImageFormat(.ktx2)
    /// Apple icon image.
    public static let icns = ImageFormat(.icns)
    /// OpenEXR.
    public static let exr = ImageFormat(.exr)
    /// Radiance RGBE (.hdr, .pic).
    public static let hdr = ImageFormat(.hdr)
    /// ZSoft PCX.
    public static let pcx = ImageFormat(.pcx)
    /// Silicon Graphics image (.sgi, .rgb).
    public static let sgi = ImageFormat(.sgi)
    /// Sun raster.
    public static let sun = ImageFormat(.sun)
    /// X BitMap.
    public static let xbm = ImageFormat(.xbm)
    /// Encapsulated PostScript, also inside a DOS EPS binary file; sized by its bounding box.
    public static let eps = ImageFormat(.eps)
    /// X PixMap (XPM3 and XPM2).
    public static let xpm = ImageFormat(.xpm)
    /// Flexible Image Transport System.
    public static let fits = ImageFormat(.fits)
    /// Multi-page PCX.
    public static let dcx = ImageFormat(.dcx)
    /// Microsoft Paint, versions 1 and 2.
    public static let msp = ImageFormat(.msp)
    /// Blizzard texture (BLP1, BLP2).
    public static let blp = ImageFormat(.blp)
    /// PowerVR texture (version 3 and the legacy version 2 header).
    public static let pvr = ImageFormat(.pvr)
    /// ETC1/ETC2 texture container (PKM 1.0 and 2.0).
    public static let pkm = ImageFormat(.pkm)
    /// ASTC texture (the astc-encoder file format).
    public static let astc = ImageFormat(.astc)
    /// farbfeld.
    public static let farbfeld = ImageFormat(.farbfeld)
    /// Valve Texture Format, versions 7.0 to 7.6.
    public static let vtf = ImageFormat(.vtf)
    /// IFF pictures: ILBM, and the PBM and ACBM forms.
    public static let ilbm = ImageFormat(.ilbm)
    /// Aseprite sprite.
    public static let aseprite = ImageFormat(.aseprite)

    /// The format's stable number, 1 to 42: the C interface's `IMAGEPROBE_FORMAT_*` values.
    package var number: Int { Int(kind.rawValue) }

    /// The lowercase name used in SPEC.md and in the CLI's JSON output. A literal: reading it
    /// allocates nothing.
    public var name: String {
        switch kind {
        case .jpeg: "jpeg"
        case .png: "png"
        case .gif: "gif"
        case .bmp: "bmp"
        case .webp: "webp"
        case .tiff: "tiff"
        case .heif: "heif"
        case .avif: "avif"
        case .jxl: "jxl"
        case .jp2: "jp2"
        case .j2k: "j2k"
        case .ico: "ico"
        case .cur: "cur"
        case .psd: "psd"
        case .tga: "tga"
        case .pnm: "pnm"
        case .pfm: "pfm"
        case .qoi: "qoi"
        case .svg: "svg"
        case .dds: "dds"
        case .ktx: "ktx"
        case .ktx2: "ktx2"
        case .icns: "icns"
        case .exr: "exr"
        case .hdr: "hdr"
        case .pcx: "pcx"
        case .sgi: "sgi"
        case .sun: "sun"
        case .xbm: "xbm"
        case .eps: "eps"
        case .xpm: "xpm"
        case .fits: "fits"
        case .dcx: "dcx"
        case .msp: "msp"
        case .blp: "blp"
        case .pvr: "pvr"
        case .pkm: "pkm"
        case .astc: "astc"
        case .farbfeld: "farbfeld"
        case .vtf: "vtf"
        case .ilbm: "ilbm"
        case .aseprite: "aseprite"
        }
    }

    /// The media type to serve this format with (IANA-registered where one exists).
    public var mimeType: String {
        switch kind {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .bmp: "image/bmp"
        case .webp: "image/webp"
        case .tiff: "image/tiff"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .jxl: "image/jxl"
        case .jp2: "image/jp2"
        case .j2k: "image/j2c"
        case .ico: "image/vnd.microsoft.icon"
        case .cur: "image/x-win-bitmap"
        case .psd: "image/vnd.adobe.photoshop"
        case .tga: "image/x-tga"
        case .pnm: "image/x-portable-anymap"
        case .pfm: "image/x-portable-floatmap"
        case .qoi: "image/qoi"
        case .svg: "image/svg+xml"
        case .dds: "image/vnd-ms.dds"
        case .ktx: "image/ktx"
        case .ktx2: "image/ktx2"
        case .icns: "image/icns"
        case .exr: "image/x-exr"
        case .hdr: "image/vnd.radiance"
        case .pcx: "image/vnd.zbrush.pcx"
        case .sgi: "image/sgi"
        case .sun: "image/x-sun-raster"
        case .xbm: "image/x-xbitmap"
        case .eps: "image/x-eps"
        case .xpm: "image/x-xpixmap"
        case .fits: "image/fits"
        case .dcx: "image/x-dcx"
        case .msp: "image/x-msp"
        case .blp: "image/x-blp"
        case .pvr: "image/x-pvr"
        case .pkm: "image/x-pkm"
        case .astc: "image/astc"
        case .farbfeld: "image/x-farbfeld"
        case .vtf: "image/vnd.valve.source.texture"
        case .ilbm: "image/x-ilbm"
        case .aseprite: "image/x-aseprite"
        }
    }

    /// Every format the scanner can report, in a stable order.
    public static var all: [ImageFormat] { Kind.allCases.map(ImageFormat.init) }
}

#if !hasFeature(Embedded)
extension ImageFormat: CustomStringConvertible {
    public var description: String { name.description }
}
#endif
