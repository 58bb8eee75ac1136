// Generated from formats.tsv by Scripts/registry.py: edit the table and run the script.

extension ImageFormat {
    enum Kind: UInt8, Sendable, CaseIterable {
        case jpeg = 1
        case png = 2
        case gif = 3
        case bmp = 4
        case webp = 5
        case tiff = 6
        case heif = 7
        case avif = 8
        case jxl = 9
        case jp2 = 10
        case j2k = 11
        case ico = 12
        case cur = 13
        case psd = 14
        case tga = 15
        case pnm = 16
        case pfm = 17
        case qoi = 18
        case svg = 19
        case dds = 20
        case ktx = 21
        case ktx2 = 22
        case icns = 23
        case exr = 24
        case hdr = 25
        case pcx = 26
        case sgi = 27
        case sun = 28
        case xbm = 29
        case eps = 30
        case xpm = 31
        case fits = 32
        case dcx = 33
        case msp = 34
        case blp = 35
        case pvr = 36
        case pkm = 37
        case astc = 38
        case farbfeld = 39
        case vtf = 40
        case ilbm = 41
        case aseprite = 42
    }

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

    /// The lowercase name (SPEC.md §3, the CLI's JSON), as a literal of either type.
    package func spelledName<Text: ExpressibleByStringLiteral>() -> Text {
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

    /// The media type, as a literal of either type. A build that leaves formats out
    /// (`IMAGEPROBE_SELECT_FORMATS`) has only its own formats' (a format left out is named,
    /// as `detected_format`, but never answered).
    package func spelledMIMEType<Text: ExpressibleByStringLiteral>() -> Text {
        switch kind {
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
        case .jpeg: "image/jpeg"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
        case .png: "image/png"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
        case .gif: "image/gif"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
        case .bmp: "image/bmp"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
        case .webp: "image/webp"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
        case .tiff: "image/tiff"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
        case .heif: "image/heif"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
        case .avif: "image/avif"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
        case .jxl: "image/jxl"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
        case .jp2: "image/jp2"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
        case .j2k: "image/j2c"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
        case .ico: "image/vnd.microsoft.icon"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
        case .cur: "image/x-win-bitmap"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
        case .psd: "image/vnd.adobe.photoshop"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
        case .tga: "image/x-tga"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
        case .pnm: "image/x-portable-anymap"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
        case .pfm: "image/x-portable-floatmap"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
        case .qoi: "image/qoi"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
        case .svg: "image/svg+xml"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
        case .dds: "image/vnd-ms.dds"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
        case .ktx: "image/ktx"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
        case .ktx2: "image/ktx2"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
        case .icns: "image/icns"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
        case .exr: "image/x-exr"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
        case .hdr: "image/vnd.radiance"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
        case .pcx: "image/vnd.zbrush.pcx"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
        case .sgi: "image/sgi"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
        case .sun: "image/x-sun-raster"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
        case .xbm: "image/x-xbitmap"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
        case .eps: "image/x-eps"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
        case .xpm: "image/x-xpixmap"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
        case .fits: "image/fits"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
        case .dcx: "image/x-dcx"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
        case .msp: "image/x-msp"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
        case .blp: "image/x-blp"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
        case .pvr: "image/x-pvr"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
        case .pkm: "image/x-pkm"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
        case .astc: "image/astc"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
        case .farbfeld: "image/x-farbfeld"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
        case .vtf: "image/vnd.valve.source.texture"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
        case .ilbm: "image/x-ilbm"
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
        case .aseprite: "image/x-aseprite"
        #endif
        #if IMAGEPROBE_SELECT_FORMATS
        default: ""
        #endif
        }
    }
}

/// Every parser, one case each: which one the scanner's slot holds (SPEC.md §1.8).
@usableFromInline
enum ParserKind: UInt8, Sendable, CaseIterable {
    case jpeg
    case png
    case gif
    case bmp
    case webp
    case tiff
    case isobmff
    case jxl
    case jpeg2000
    case ico
    case psd
    case tga
    case pnm
    case qoi
    case svg
    case dds
    case ktx
    case icns
    case exr
    case radiance
    case pcx
    case sgi
    case sunRaster
    case xbm
    case eps
    case xpm
    case fits
    case dcx
    case msp
    case blp
    case pvr
    case pkm
    case astc
    case farbfeld
    case vtf
    case ilbm
    case aseprite
}

extension ParserKind {
    /// The parser whose format's two-byte signature (formats.tsv) the input starts with:
    /// a switch on the first byte, then on the second.
    static func signature(_ first: UInt8, _ second: UInt8) -> ParserKind? {
        switch first {
        case 0x01:
            switch second {
            case 0xDA: return .sgi  // sgi
            default: return nil
            }
        case 0x03:
            switch second {
            case 0x52: return .pvr  // pvr
            default: return nil
            }
        case 0x13:
            switch second {
            case 0xAB: return .astc  // astc
            default: return nil
            }
        case 0x21:
            switch second {
            case 0x20: return .xpm  // xpm, "! "
            default: return nil
            }
        case 0x23:
            switch second {
            case 0x3F: return .radiance  // hdr, "#?"
            case 0x64: return .xbm  // xbm, "#d"
            default: return nil
            }
        case 0x25:
            switch second {
            case 0x21: return .eps  // eps, "%!"
            default: return nil
            }
        case 0x38:
            switch second {
            case 0x42: return .psd  // psd, "8B"
            default: return nil
            }
        case 0x42:
            switch second {
            case 0x4C: return .blp  // blp, "BL"
            case 0x4D: return .bmp  // bmp, "BM"
            default: return nil
            }
        case 0x44:
            switch second {
            case 0x44: return .dds  // dds, "DD"
            case 0x61: return .msp  // msp, "Da"
            default: return nil
            }
        case 0x46:
            switch second {
            case 0x4F: return .ilbm  // ilbm, "FO"
            default: return nil
            }
        case 0x47:
            switch second {
            case 0x49: return .gif  // gif, "GI"
            default: return nil
            }
        case 0x49:
            switch second {
            case 0x49: return .tiff  // tiff, "II"
            default: return nil
            }
        case 0x4C:
            switch second {
            case 0x69: return .msp  // msp, "Li"
            default: return nil
            }
        case 0x4D:
            switch second {
            case 0x4D: return .tiff  // tiff, "MM"
            default: return nil
            }
        case 0x50:
            switch second {
            case 0x31...0x37: return .pnm  // pnm, "P1"
            case 0x46: return .pnm  // pfm, "PF"
            case 0x4B: return .pkm  // pkm, "PK"
            case 0x56: return .pvr  // pvr, "PV"
            case 0x66: return .pnm  // pfm, "Pf"
            default: return nil
            }
        case 0x52:
            switch second {
            case 0x49: return .webp  // webp, "RI"
            default: return nil
            }
        case 0x53:
            switch second {
            case 0x49: return .fits  // fits, "SI"
            default: return nil
            }
        case 0x56:
            switch second {
            case 0x54: return .vtf  // vtf, "VT"
            default: return nil
            }
        case 0x59:
            switch second {
            case 0xA6: return .sunRaster  // sun
            default: return nil
            }
        case 0x66:
            switch second {
            case 0x61: return .farbfeld  // farbfeld, "fa"
            default: return nil
            }
        case 0x69:
            switch second {
            case 0x63: return .icns  // icns, "ic"
            default: return nil
            }
        case 0x71:
            switch second {
            case 0x6F: return .qoi  // qoi, "qo"
            default: return nil
            }
        case 0x76:
            switch second {
            case 0x2F: return .exr  // exr, "v/"
            default: return nil
            }
        case 0x89:
            switch second {
            case 0x50: return .png  // png
            default: return nil
            }
        case 0xAB:
            switch second {
            case 0x4B: return .ktx  // ktx
            default: return nil
            }
        case 0xB1:
            switch second {
            case 0x68: return .dcx  // dcx
            default: return nil
            }
        case 0xC5:
            switch second {
            case 0xD0: return .eps  // eps
            default: return nil
            }
        case 0xFF:
            switch second {
            case 0x0A: return .jxl  // jxl
            case 0x4F: return .jpeg2000  // j2k
            case 0xD8: return .jpeg  // jpeg
            default: return nil
            }
        default: return nil
        }
    }

    /// The parser whose format's first box (formats.tsv) has type `type`.
    static func box(type: UInt32) -> ParserKind? {
        switch type {
        case 0x66747970: .isobmff  // "ftyp"
        case 0x4A584C20: .jxl  // "JXL "
        case 0x6A502020: .jpeg2000  // "jP  "
        default: nil
        }
    }

    /// The first format this parser reads: named when the build leaves the parser out.
    var primaryFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .gif: .gif
        case .bmp: .bmp
        case .webp: .webp
        case .tiff: .tiff
        case .isobmff: .heif
        case .jxl: .jxl
        case .jpeg2000: .jp2
        case .ico: .ico
        case .psd: .psd
        case .tga: .tga
        case .pnm: .pnm
        case .qoi: .qoi
        case .svg: .svg
        case .dds: .dds
        case .ktx: .ktx
        case .icns: .icns
        case .exr: .exr
        case .radiance: .hdr
        case .pcx: .pcx
        case .sgi: .sgi
        case .sunRaster: .sun
        case .xbm: .xbm
        case .eps: .eps
        case .xpm: .xpm
        case .fits: .fits
        case .dcx: .dcx
        case .msp: .msp
        case .blp: .blp
        case .pvr: .pvr
        case .pkm: .pkm
        case .astc: .astc
        case .farbfeld: .farbfeld
        case .vtf: .vtf
        case .ilbm: .ilbm
        case .aseprite: .aseprite
        }
    }

    /// `visitor` for this kind's parser type; nil when the build leaves the parser out.
    func visit<Visitor: ParserVisitor>(_ visitor: Visitor) -> Visitor.Result? {
        switch self {
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
        case .jpeg: visitor.visit(JPEGParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
        case .png: visitor.visit(PNGParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
        case .gif: visitor.visit(GIFParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
        case .bmp: visitor.visit(BMPParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
        case .webp: visitor.visit(WebPParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
        case .tiff: visitor.visit(TIFFParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
        case .isobmff: visitor.visit(ISOBMFFParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
        case .jxl: visitor.visit(JXLParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
        case .jpeg2000: visitor.visit(JPEG2000Parser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
        case .ico: visitor.visit(ICOParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
        case .psd: visitor.visit(PSDParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
        case .tga: visitor.visit(TGAParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
        case .pnm: visitor.visit(PNMParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
        case .qoi: visitor.visit(QOIParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
        case .svg: visitor.visit(SVGParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
        case .dds: visitor.visit(DDSParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
        case .ktx: visitor.visit(KTXParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
        case .icns: visitor.visit(ICNSParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
        case .exr: visitor.visit(EXRParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
        case .radiance: visitor.visit(RadianceParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
        case .pcx: visitor.visit(PCXParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
        case .sgi: visitor.visit(SGIParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
        case .sunRaster: visitor.visit(SunRasterParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
        case .xbm: visitor.visit(XBMParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
        case .eps: visitor.visit(EPSParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
        case .xpm: visitor.visit(XPMParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
        case .fits: visitor.visit(FITSParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
        case .dcx: visitor.visit(DCXParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
        case .msp: visitor.visit(MSPParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
        case .blp: visitor.visit(BLPParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
        case .pvr: visitor.visit(PVRParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
        case .pkm: visitor.visit(PKMParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
        case .astc: visitor.visit(ASTCParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
        case .farbfeld: visitor.visit(FarbfeldParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
        case .vtf: visitor.visit(VTFParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
        case .ilbm: visitor.visit(ILBMParser.self)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
        case .aseprite: visitor.visit(AsepriteParser.self)
        #endif
        #if IMAGEPROBE_SELECT_FORMATS
        default: nil
        #endif
        }
    }
}

extension HeaderScanner {
    /// Runs the parser of `kind` in the slot over the chunk, compiled for its type
    /// (Core/Engine.swift). Returns how its run ended, nil when the build leaves it out.
    mutating func run(_ kind: ParserKind, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void) -> RunResult? {
        switch kind {
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
        case .jpeg: return run(JPEGParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
        case .png: return run(PNGParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
        case .gif: return run(GIFParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
        case .bmp: return run(BMPParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
        case .webp: return run(WebPParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
        case .tiff: return run(TIFFParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
        case .isobmff: return run(ISOBMFFParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
        case .jxl: return run(JXLParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
        case .jpeg2000: return run(JPEG2000Parser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
        case .ico: return run(ICOParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
        case .psd: return run(PSDParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
        case .tga: return run(TGAParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
        case .pnm: return run(PNMParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
        case .qoi: return run(QOIParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
        case .svg: return run(SVGParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
        case .dds: return run(DDSParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
        case .ktx: return run(KTXParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
        case .icns: return run(ICNSParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
        case .exr: return run(EXRParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
        case .radiance: return run(RadianceParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
        case .pcx: return run(PCXParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
        case .sgi: return run(SGIParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
        case .sunRaster: return run(SunRasterParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
        case .xbm: return run(XBMParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
        case .eps: return run(EPSParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
        case .xpm: return run(XPMParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
        case .fits: return run(FITSParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
        case .dcx: return run(DCXParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
        case .msp: return run(MSPParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
        case .blp: return run(BLPParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
        case .pvr: return run(PVRParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
        case .pkm: return run(PKMParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
        case .astc: return run(ASTCParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
        case .farbfeld: return run(FarbfeldParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
        case .vtf: return run(VTFParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
        case .ilbm: return run(ILBMParser.self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
        case .aseprite: return run(AsepriteParser.self, &input, onFrame)
        #endif
        #if IMAGEPROBE_SELECT_FORMATS
        default: return nil
        #endif
        }
    }
}

extension ParserSlot {
    /// `visitor` on the parser the slot holds, in place, compiled for its type
    /// (Core/Engine.swift).
    mutating func visit<Visitor: SlotVisitor>(_ visitor: Visitor) -> Visitor.Result {
        guard case .parser(let kind) = occupant else { return Visitor.withoutParser }
        switch kind {
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
        case .jpeg: return withParser(JPEGParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
        case .png: return withParser(PNGParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
        case .gif: return withParser(GIFParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
        case .bmp: return withParser(BMPParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
        case .webp: return withParser(WebPParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
        case .tiff: return withParser(TIFFParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
        case .isobmff: return withParser(ISOBMFFParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
        case .jxl: return withParser(JXLParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
        case .jpeg2000: return withParser(JPEG2000Parser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
        case .ico: return withParser(ICOParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
        case .psd: return withParser(PSDParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
        case .tga: return withParser(TGAParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
        case .pnm: return withParser(PNMParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
        case .qoi: return withParser(QOIParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
        case .svg: return withParser(SVGParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
        case .dds: return withParser(DDSParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
        case .ktx: return withParser(KTXParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
        case .icns: return withParser(ICNSParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
        case .exr: return withParser(EXRParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
        case .radiance: return withParser(RadianceParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
        case .pcx: return withParser(PCXParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
        case .sgi: return withParser(SGIParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
        case .sunRaster: return withParser(SunRasterParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
        case .xbm: return withParser(XBMParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
        case .eps: return withParser(EPSParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
        case .xpm: return withParser(XPMParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
        case .fits: return withParser(FITSParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
        case .dcx: return withParser(DCXParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
        case .msp: return withParser(MSPParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
        case .blp: return withParser(BLPParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
        case .pvr: return withParser(PVRParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
        case .pkm: return withParser(PKMParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
        case .astc: return withParser(ASTCParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
        case .farbfeld: return withParser(FarbfeldParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
        case .vtf: return withParser(VTFParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
        case .ilbm: return withParser(ILBMParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
        case .aseprite: return withParser(AsepriteParser.self) { visitor.visit(&$0) } ?? Visitor.withoutParser
        #endif
        #if IMAGEPROBE_SELECT_FORMATS
        default: return Visitor.withoutParser
        #endif
        }
    }

    /// Puts the parser of `kind` in the slot, started on what the sniffer read; its first
    /// step, or nil when the build leaves the parser out.
    mutating func start(_ kind: ParserKind, _ sniffed: Sniffed) -> Step? {
        switch kind {
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
        case .jpeg: return start(JPEGParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
        case .png: return start(PNGParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
        case .gif: return start(GIFParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
        case .bmp: return start(BMPParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
        case .webp: return start(WebPParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
        case .tiff: return start(TIFFParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
        case .isobmff: return start(ISOBMFFParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
        case .jxl: return start(JXLParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
        case .jpeg2000: return start(JPEG2000Parser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
        case .ico: return start(ICOParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
        case .psd: return start(PSDParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
        case .tga: return start(TGAParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
        case .pnm: return start(PNMParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
        case .qoi: return start(QOIParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
        case .svg: return start(SVGParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
        case .dds: return start(DDSParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
        case .ktx: return start(KTXParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
        case .icns: return start(ICNSParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
        case .exr: return start(EXRParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
        case .radiance: return start(RadianceParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
        case .pcx: return start(PCXParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
        case .sgi: return start(SGIParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
        case .sunRaster: return start(SunRasterParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
        case .xbm: return start(XBMParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
        case .eps: return start(EPSParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
        case .xpm: return start(XPMParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
        case .fits: return start(FITSParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
        case .dcx: return start(DCXParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
        case .msp: return start(MSPParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
        case .blp: return start(BLPParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
        case .pvr: return start(PVRParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
        case .pkm: return start(PKMParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
        case .astc: return start(ASTCParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
        case .farbfeld: return start(FarbfeldParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
        case .vtf: return start(VTFParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
        case .ilbm: return start(ILBMParser(sniffed: sniffed))
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
        case .aseprite: return start(AsepriteParser(sniffed: sniffed))
        #endif
        #if IMAGEPROBE_SELECT_FORMATS
        default: return nil
        #endif
        }
    }
}

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
extension JPEGParser {
    static var kind: ParserKind { .jpeg }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
extension PNGParser {
    static var kind: ParserKind { .png }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
extension GIFParser {
    static var kind: ParserKind { .gif }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
extension BMPParser {
    static var kind: ParserKind { .bmp }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
extension WebPParser {
    static var kind: ParserKind { .webp }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
extension TIFFParser {
    static var kind: ParserKind { .tiff }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
extension ISOBMFFParser {
    static var kind: ParserKind { .isobmff }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
extension JXLParser {
    static var kind: ParserKind { .jxl }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
extension JPEG2000Parser {
    static var kind: ParserKind { .jpeg2000 }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
extension ICOParser {
    static var kind: ParserKind { .ico }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
extension PSDParser {
    static var kind: ParserKind { .psd }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
extension TGAParser {
    static var kind: ParserKind { .tga }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
extension PNMParser {
    static var kind: ParserKind { .pnm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
extension QOIParser {
    static var kind: ParserKind { .qoi }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
extension SVGParser {
    static var kind: ParserKind { .svg }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
extension DDSParser {
    static var kind: ParserKind { .dds }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
extension KTXParser {
    static var kind: ParserKind { .ktx }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
extension ICNSParser {
    static var kind: ParserKind { .icns }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
extension EXRParser {
    static var kind: ParserKind { .exr }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
extension RadianceParser {
    static var kind: ParserKind { .radiance }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
extension PCXParser {
    static var kind: ParserKind { .pcx }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
extension SGIParser {
    static var kind: ParserKind { .sgi }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
extension SunRasterParser {
    static var kind: ParserKind { .sunRaster }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
extension XBMParser {
    static var kind: ParserKind { .xbm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
extension EPSParser {
    static var kind: ParserKind { .eps }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
extension XPMParser {
    static var kind: ParserKind { .xpm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
extension FITSParser {
    static var kind: ParserKind { .fits }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
extension DCXParser {
    static var kind: ParserKind { .dcx }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
extension MSPParser {
    static var kind: ParserKind { .msp }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
extension BLPParser {
    static var kind: ParserKind { .blp }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
extension PVRParser {
    static var kind: ParserKind { .pvr }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
extension PKMParser {
    static var kind: ParserKind { .pkm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
extension ASTCParser {
    static var kind: ParserKind { .astc }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
extension FarbfeldParser {
    static var kind: ParserKind { .farbfeld }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
extension VTFParser {
    static var kind: ParserKind { .vtf }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
extension ILBMParser {
    static var kind: ParserKind { .ilbm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
extension AsepriteParser {
    static var kind: ParserKind { .aseprite }
}
#endif
