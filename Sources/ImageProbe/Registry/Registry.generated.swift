// Generated from formats.tsv by Scripts/registry.py: edit the table and run the script.

extension ImageFormat {
    @usableFromInline
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

    /// How many formats there are: their numbers are 1 to this.
    @usableFromInline static var count: Int { 42 }

    /// Every format's name, one per line in format-number order: what `nameUTF8` reads for
    /// the C interface, with no String built.
    @usableFromInline
    static var nameTable: StaticString {
        """
        jpeg
        png
        gif
        bmp
        webp
        tiff
        heif
        avif
        jxl
        jp2
        j2k
        ico
        cur
        psd
        tga
        pnm
        pfm
        qoi
        svg
        dds
        ktx
        ktx2
        icns
        exr
        hdr
        pcx
        sgi
        sun
        xbm
        eps
        xpm
        fits
        dcx
        msp
        blp
        pvr
        pkm
        astc
        farbfeld
        vtf
        ilbm
        aseprite
        """
    }

    /// Every media type, one per line in format-number order: what `mimeTypeUTF8` reads.
    @usableFromInline
    static var mimeTable: StaticString {
        """
        image/jpeg
        image/png
        image/gif
        image/bmp
        image/webp
        image/tiff
        image/heif
        image/avif
        image/jxl
        image/jp2
        image/j2c
        image/vnd.microsoft.icon
        image/x-win-bitmap
        image/vnd.adobe.photoshop
        image/x-tga
        image/x-portable-anymap
        image/x-portable-floatmap
        image/qoi
        image/svg+xml
        image/vnd-ms.dds
        image/ktx
        image/ktx2
        image/icns
        image/x-exr
        image/vnd.radiance
        image/vnd.zbrush.pcx
        image/sgi
        image/x-sun-raster
        image/x-xbitmap
        image/x-eps
        image/x-xpixmap
        image/fits
        image/x-dcx
        image/x-msp
        image/x-blp
        image/x-pvr
        image/x-pkm
        image/astc
        image/x-farbfeld
        image/vnd.valve.source.texture
        image/x-ilbm
        image/x-aseprite
        """
    }

    #if IMAGEPROBE_SELECT_FORMATS
    /// `mimeTypeUTF8` in a build that leaves formats out: only its own formats' media types,
    /// one literal each, so the others' are not in the build (they are never reported: a
    /// format left out is named, as `detected_format`, but never answered).
    @usableFromInline
    var selectedMimeTypeUTF8: UnsafeRawBufferPointer {
        switch kind {
        #if IMAGEPROBE_WITH_JPEG
        case .jpeg: ("image/jpeg" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_PNG
        case .png: ("image/png" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_GIF
        case .gif: ("image/gif" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_BMP
        case .bmp: ("image/bmp" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_WEBP
        case .webp: ("image/webp" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_TIFF
        case .tiff: ("image/tiff" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_ISOBMFF
        case .heif: ("image/heif" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_ISOBMFF
        case .avif: ("image/avif" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_JXL
        case .jxl: ("image/jxl" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_JPEG2000
        case .jp2: ("image/jp2" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_JPEG2000
        case .j2k: ("image/j2c" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_ICO
        case .ico: ("image/vnd.microsoft.icon" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_ICO
        case .cur: ("image/x-win-bitmap" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_PSD
        case .psd: ("image/vnd.adobe.photoshop" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_TGA
        case .tga: ("image/x-tga" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_PNM
        case .pnm: ("image/x-portable-anymap" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_PNM
        case .pfm: ("image/x-portable-floatmap" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_QOI
        case .qoi: ("image/qoi" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_SVG
        case .svg: ("image/svg+xml" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_DDS
        case .dds: ("image/vnd-ms.dds" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_KTX
        case .ktx: ("image/ktx" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_KTX
        case .ktx2: ("image/ktx2" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_ICNS
        case .icns: ("image/icns" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_EXR
        case .exr: ("image/x-exr" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_RADIANCE
        case .hdr: ("image/vnd.radiance" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_PCX
        case .pcx: ("image/vnd.zbrush.pcx" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_SGI
        case .sgi: ("image/sgi" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_SUNRASTER
        case .sun: ("image/x-sun-raster" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_XBM
        case .xbm: ("image/x-xbitmap" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_EPS
        case .eps: ("image/x-eps" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_XPM
        case .xpm: ("image/x-xpixmap" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_FITS
        case .fits: ("image/fits" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_DCX
        case .dcx: ("image/x-dcx" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_MSP
        case .msp: ("image/x-msp" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_BLP
        case .blp: ("image/x-blp" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_PVR
        case .pvr: ("image/x-pvr" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_PKM
        case .pkm: ("image/x-pkm" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_ASTC
        case .astc: ("image/astc" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_FARBFELD
        case .farbfeld: ("image/x-farbfeld" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_VTF
        case .vtf: ("image/vnd.valve.source.texture" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_ILBM
        case .ilbm: ("image/x-ilbm" as StaticString).utf8Bytes
        #endif
        #if IMAGEPROBE_WITH_ASEPRITE
        case .aseprite: ("image/x-aseprite" as StaticString).utf8Bytes
        #endif
        default: UnsafeRawBufferPointer(start: nil, count: 0)
        }
    }
    #endif

    /// The parser that reads this format.
    @usableFromInline
    var parser: ParserKind {
        switch kind {
        case .jpeg: .jpeg
        case .png: .png
        case .gif: .gif
        case .bmp: .bmp
        case .webp: .webp
        case .tiff: .tiff
        case .heif: .isobmff
        case .avif: .isobmff
        case .jxl: .jxl
        case .jp2: .jpeg2000
        case .j2k: .jpeg2000
        case .ico: .ico
        case .cur: .ico
        case .psd: .psd
        case .tga: .tga
        case .pnm: .pnm
        case .pfm: .pnm
        case .qoi: .qoi
        case .svg: .svg
        case .dds: .dds
        case .ktx: .ktx
        case .ktx2: .ktx
        case .icns: .icns
        case .exr: .exr
        case .hdr: .radiance
        case .pcx: .pcx
        case .sgi: .sgi
        case .sun: .sunRaster
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

    /// How many there are: their raw values are 0 to this − 1.
    @usableFromInline static var count: UInt8 { 37 }
}

extension HeaderScanner {
    /// The one dispatch from a parser kind to its parser: `operation` specialised for the
    /// parser's type, a direct call. Parsers left out of the build (`IMAGEPROBE_SELECT_FORMATS`)
    /// go to `operation.unavailable`, all through one case.
    @usableFromInline @_transparent
    mutating func dispatch<Operation: ScannerOperation>(
        _ kind: ParserKind, _ operation: Operation.Type, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        switch kind {
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
        case .jpeg: return Operation.apply(JPEGParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
        case .png: return Operation.apply(PNGParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
        case .gif: return Operation.apply(GIFParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
        case .bmp: return Operation.apply(BMPParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
        case .webp: return Operation.apply(WebPParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
        case .tiff: return Operation.apply(TIFFParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
        case .isobmff: return Operation.apply(ISOBMFFParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
        case .jxl: return Operation.apply(JXLParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
        case .jpeg2000: return Operation.apply(JPEG2000Parser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
        case .ico: return Operation.apply(ICOParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
        case .psd: return Operation.apply(PSDParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
        case .tga: return Operation.apply(TGAParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
        case .pnm: return Operation.apply(PNMParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
        case .qoi: return Operation.apply(QOIParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
        case .svg: return Operation.apply(SVGParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
        case .dds: return Operation.apply(DDSParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
        case .ktx: return Operation.apply(KTXParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
        case .icns: return Operation.apply(ICNSParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
        case .exr: return Operation.apply(EXRParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
        case .radiance: return Operation.apply(RadianceParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
        case .pcx: return Operation.apply(PCXParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
        case .sgi: return Operation.apply(SGIParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
        case .sunRaster: return Operation.apply(SunRasterParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
        case .xbm: return Operation.apply(XBMParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
        case .eps: return Operation.apply(EPSParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
        case .xpm: return Operation.apply(XPMParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
        case .fits: return Operation.apply(FITSParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
        case .dcx: return Operation.apply(DCXParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
        case .msp: return Operation.apply(MSPParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
        case .blp: return Operation.apply(BLPParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
        case .pvr: return Operation.apply(PVRParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
        case .pkm: return Operation.apply(PKMParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
        case .astc: return Operation.apply(ASTCParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
        case .farbfeld: return Operation.apply(FarbfeldParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
        case .vtf: return Operation.apply(VTFParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
        case .ilbm: return Operation.apply(ILBMParser.self, &self, &input, onFrame)
        #endif
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
        case .aseprite: return Operation.apply(AsepriteParser.self, &self, &input, onFrame)
        #endif
        #if IMAGEPROBE_SELECT_FORMATS
        default: return Operation.unavailable(kind, &self)
        #endif
        }
    }
}

extension ParserKind {
    /// The first format this parser reads: named when the build leaves the parser out.
    @inlinable
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
    @inlinable
    func visit<Visitor: ParserVisitor>(_ visitor: Visitor) -> Visitor.Result? {
        switch self {
        case .jpeg:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG
            return nil
            #else
            return visitor.visit(JPEGParser.self)
            #endif
        case .png:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG
            return nil
            #else
            return visitor.visit(PNGParser.self)
            #endif
        case .gif:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF
            return nil
            #else
            return visitor.visit(GIFParser.self)
            #endif
        case .bmp:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP
            return nil
            #else
            return visitor.visit(BMPParser.self)
            #endif
        case .webp:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP
            return nil
            #else
            return visitor.visit(WebPParser.self)
            #endif
        case .tiff:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF
            return nil
            #else
            return visitor.visit(TIFFParser.self)
            #endif
        case .isobmff:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF
            return nil
            #else
            return visitor.visit(ISOBMFFParser.self)
            #endif
        case .jxl:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL
            return nil
            #else
            return visitor.visit(JXLParser.self)
            #endif
        case .jpeg2000:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000
            return nil
            #else
            return visitor.visit(JPEG2000Parser.self)
            #endif
        case .ico:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO
            return nil
            #else
            return visitor.visit(ICOParser.self)
            #endif
        case .psd:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD
            return nil
            #else
            return visitor.visit(PSDParser.self)
            #endif
        case .tga:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA
            return nil
            #else
            return visitor.visit(TGAParser.self)
            #endif
        case .pnm:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM
            return nil
            #else
            return visitor.visit(PNMParser.self)
            #endif
        case .qoi:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI
            return nil
            #else
            return visitor.visit(QOIParser.self)
            #endif
        case .svg:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG
            return nil
            #else
            return visitor.visit(SVGParser.self)
            #endif
        case .dds:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS
            return nil
            #else
            return visitor.visit(DDSParser.self)
            #endif
        case .ktx:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX
            return nil
            #else
            return visitor.visit(KTXParser.self)
            #endif
        case .icns:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS
            return nil
            #else
            return visitor.visit(ICNSParser.self)
            #endif
        case .exr:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR
            return nil
            #else
            return visitor.visit(EXRParser.self)
            #endif
        case .radiance:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE
            return nil
            #else
            return visitor.visit(RadianceParser.self)
            #endif
        case .pcx:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX
            return nil
            #else
            return visitor.visit(PCXParser.self)
            #endif
        case .sgi:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI
            return nil
            #else
            return visitor.visit(SGIParser.self)
            #endif
        case .sunRaster:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER
            return nil
            #else
            return visitor.visit(SunRasterParser.self)
            #endif
        case .xbm:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM
            return nil
            #else
            return visitor.visit(XBMParser.self)
            #endif
        case .eps:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS
            return nil
            #else
            return visitor.visit(EPSParser.self)
            #endif
        case .xpm:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM
            return nil
            #else
            return visitor.visit(XPMParser.self)
            #endif
        case .fits:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS
            return nil
            #else
            return visitor.visit(FITSParser.self)
            #endif
        case .dcx:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX
            return nil
            #else
            return visitor.visit(DCXParser.self)
            #endif
        case .msp:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP
            return nil
            #else
            return visitor.visit(MSPParser.self)
            #endif
        case .blp:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP
            return nil
            #else
            return visitor.visit(BLPParser.self)
            #endif
        case .pvr:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR
            return nil
            #else
            return visitor.visit(PVRParser.self)
            #endif
        case .pkm:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM
            return nil
            #else
            return visitor.visit(PKMParser.self)
            #endif
        case .astc:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC
            return nil
            #else
            return visitor.visit(ASTCParser.self)
            #endif
        case .farbfeld:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD
            return nil
            #else
            return visitor.visit(FarbfeldParser.self)
            #endif
        case .vtf:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF
            return nil
            #else
            return visitor.visit(VTFParser.self)
            #endif
        case .ilbm:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM
            return nil
            #else
            return visitor.visit(ILBMParser.self)
            #endif
        case .aseprite:
            #if IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE
            return nil
            #else
            return visitor.visit(AsepriteParser.self)
            #endif
        }
    }
}

extension Sniffer {
    /// The formats whose first two bytes formats.tsv declares as their signature, for
    /// `laterSignature`; formats the sniffer routes by more than two bytes aren't here.
    @inlinable
    static func registeredSignature(_ first: UInt8, _ second: UInt8) -> ParserKind? {
        switch (first, second) {
        default: nil
        }
    }
}

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
extension JPEGParser {
    @inlinable
    static var kind: ParserKind { .jpeg }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
extension PNGParser {
    @inlinable
    static var kind: ParserKind { .png }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
extension GIFParser {
    @inlinable
    static var kind: ParserKind { .gif }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
extension BMPParser {
    @inlinable
    static var kind: ParserKind { .bmp }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
extension WebPParser {
    @inlinable
    static var kind: ParserKind { .webp }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
extension TIFFParser {
    @inlinable
    static var kind: ParserKind { .tiff }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
extension ISOBMFFParser {
    @inlinable
    static var kind: ParserKind { .isobmff }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
extension JXLParser {
    @inlinable
    static var kind: ParserKind { .jxl }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
extension JPEG2000Parser {
    @inlinable
    static var kind: ParserKind { .jpeg2000 }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
extension ICOParser {
    @inlinable
    static var kind: ParserKind { .ico }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
extension PSDParser {
    @inlinable
    static var kind: ParserKind { .psd }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
extension TGAParser {
    @inlinable
    static var kind: ParserKind { .tga }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
extension PNMParser {
    @inlinable
    static var kind: ParserKind { .pnm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
extension QOIParser {
    @inlinable
    static var kind: ParserKind { .qoi }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
extension SVGParser {
    @inlinable
    static var kind: ParserKind { .svg }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
extension DDSParser {
    @inlinable
    static var kind: ParserKind { .dds }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
extension KTXParser {
    @inlinable
    static var kind: ParserKind { .ktx }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
extension ICNSParser {
    @inlinable
    static var kind: ParserKind { .icns }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
extension EXRParser {
    @inlinable
    static var kind: ParserKind { .exr }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
extension RadianceParser {
    @inlinable
    static var kind: ParserKind { .radiance }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
extension PCXParser {
    @inlinable
    static var kind: ParserKind { .pcx }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
extension SGIParser {
    @inlinable
    static var kind: ParserKind { .sgi }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
extension SunRasterParser {
    @inlinable
    static var kind: ParserKind { .sunRaster }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
extension XBMParser {
    @inlinable
    static var kind: ParserKind { .xbm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
extension EPSParser {
    @inlinable
    static var kind: ParserKind { .eps }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
extension XPMParser {
    @inlinable
    static var kind: ParserKind { .xpm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
extension FITSParser {
    @inlinable
    static var kind: ParserKind { .fits }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
extension DCXParser {
    @inlinable
    static var kind: ParserKind { .dcx }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
extension MSPParser {
    @inlinable
    static var kind: ParserKind { .msp }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
extension BLPParser {
    @inlinable
    static var kind: ParserKind { .blp }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
extension PVRParser {
    @inlinable
    static var kind: ParserKind { .pvr }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
extension PKMParser {
    @inlinable
    static var kind: ParserKind { .pkm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
extension ASTCParser {
    @inlinable
    static var kind: ParserKind { .astc }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
extension FarbfeldParser {
    @inlinable
    static var kind: ParserKind { .farbfeld }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
extension VTFParser {
    @inlinable
    static var kind: ParserKind { .vtf }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
extension ILBMParser {
    @inlinable
    static var kind: ParserKind { .ilbm }
}
#endif

#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
extension AsepriteParser {
    @inlinable
    static var kind: ParserKind { .aseprite }
}
#endif
