/// The facts every format reports. Parsers keep one in their state while they scan;
/// `ImageInfo` wraps it.
struct ImageFacts: Hashable, Sendable {
    /// The stored size, as the file states it (32 bits: no format but BigTIFF states more,
    /// and larger sizes are refused).
    var storedWidth: UInt32 = 0
    var storedHeight: UInt32 = 0
    /// The frame or entry count, as stored.
    var storedFrameCount: UInt32? = nil
    /// The loop count, as stored.
    var storedLoopCount: UInt32? = nil
    /// Bits per sample, never 0.
    var storedBitDepth: UInt16? = nil
    var orientation: Orientation? = nil
    var hasAlpha: Bool? = nil
    var isProgressive: Bool? = nil
    var isAnimated: Bool? = nil
    var format: ImageFormat

    init(format: ImageFormat, width: Int = 0, height: Int = 0) {
        self.format = format
        self.storedWidth = UInt32(clamping: width)
        self.storedHeight = UInt32(clamping: height)
    }

    // The `Int` views saturate at `Int.max` where `Int` is 32 bits (SPEC.md §1.10); the
    // stored views are the file's values, for limits and the C interface.
    var width: Int {
        get { Int(clamping: storedWidth) }
        set { storedWidth = UInt32(clamping: newValue) }
    }

    var height: Int {
        get { Int(clamping: storedHeight) }
        set { storedHeight = UInt32(clamping: newValue) }
    }

    /// Bits per sample; 0 (or less) reads back as unknown.
    var bitDepth: Int? {
        get { storedBitDepth.map { Int($0) } }
        set {
            let depth = UInt16(clamping: newValue ?? 0)
            storedBitDepth = depth == 0 ? nil : depth
        }
    }

    var frameCount: Int? {
        get { storedFrameCount.map { Int(clamping: $0) } }
        set { storedFrameCount = newValue.map { UInt32(clamping: $0) } }
    }

    var loopCount: Int? {
        get { storedLoopCount.map { Int(clamping: $0) } }
        set { storedLoopCount = newValue.map { UInt32(clamping: $0) } }
    }
}

/// The preview picture of a DOS EPS binary file (Adobe TN 5002 §5.2), which holds either a
/// TIFF or a Windows Metafile beside the PostScript.
public enum EPSPreview: Hashable, Sendable {
    /// A TIFF preview.
    case tiff
    /// A Windows Metafile preview.
    case windowsMetafile

    /// The preview's name in the CLI's JSON: `tiff` or `wmf`. A literal: reading it
    /// allocates nothing.
    public var name: String { spelled() }

    /// The name as a literal of either type (the C interface copies a StaticString's bytes).
    package func spelled<Text: ExpressibleByStringLiteral>() -> Text {
        switch self {
        case .tiff: "tiff"
        case .windowsMetafile: "wmf"
        }
    }
}

/// What the scanner learned about an image from its header.
public struct ImageInfo: Hashable, Sendable {
    var facts: ImageFacts
    /// Colour, resolution, interlacing and motion photos: full mode's extra facts. Beside
    /// `facts`, so that an answer is copied in whole words.
    var extras = ExtraFacts()
    /// The format-specific details, of which a file has at most one kind.
    var details: Details = .none

    enum Details: Hashable, Sendable {
        case none
        case svg(SVGSize)
        /// Animation mode's totals.
        case animation(AnimationTotals)
        case epsPreview(EPSPreview)
        /// HEIF and AVIF: the primary item's clean aperture, as its fractions (the image size
        /// they apply to is the info's own), and for an image sequence in animation mode the
        /// sums of its delays: its frames are the whole image, so that is its largest frame.
        /// One case for both: together they fit in the space the `svg` case takes anyway.
        case cleanAperture(CleanAperture.Fractions, durations: AnimationDurations?)
    }

    /// What animation mode counted over every frame.
    var animationTotals: AnimationTotals? {
        get {
            switch details {
            case .animation(let totals):
                totals
            case .cleanAperture(_, let durations?):
                AnimationTotals(
                    durations: durations, largestX: 0, largestY: 0,
                    largestWidth: UInt32(truncatingIfNeeded: facts.width), largestHeight: UInt32(truncatingIfNeeded: facts.height))
            case .none, .svg, .epsPreview, .cleanAperture(_, nil):
                nil
            }
        }
        set {
            switch (details, newValue) {
            case (.cleanAperture(let fractions, _), let totals):
                details = .cleanAperture(fractions, durations: totals?.durations)
            case (_, let totals?):
                details = .animation(totals)
            case (.animation, nil):
                details = .none
            case (.none, nil), (.svg, nil), (.epsPreview, nil):
                break
            }
        }
    }

    /// The clean aperture's fractions: see `cleanAperture`.
    var cleanApertureFractions: CleanAperture.Fractions? {
        get {
            guard case .cleanAperture(let fractions, _) = details else { return nil }
            return fractions
        }
        set { details = newValue.map { Details.cleanAperture($0, durations: nil) } ?? .none }
    }

    /// A parser's answer: its facts, and full mode's extra facts where it reads them.
    init(_ facts: ImageFacts) { self.facts = facts }

    init(_ facts: ImageFacts, _ extras: ExtraFacts) {
        self.facts = facts
        self.extras = extras
    }

    /// The file format.
    public var format: ImageFormat {
        get { facts.format }
        set { facts.format = newValue }
    }

    /// Stored width in pixels, before any orientation is applied.
    public var width: Int {
        get { facts.width }
        set { facts.width = newValue }
    }

    /// Stored height in pixels, before any orientation is applied.
    public var height: Int {
        get { facts.height }
        set { facts.height = newValue }
    }

    /// The EXIF orientation the file carries, or nil when it carries none (or an invalid value).
    /// Always nil in dimensions-only mode.
    public var orientation: Orientation? {
        get { facts.orientation }
        set { facts.orientation = newValue }
    }

    /// Bits per sample as the header states it (JPEG precision, PNG bit depth, TIFF
    /// BitsPerSample); bits per pixel for formats that only state that (BMP, GIF's palette).
    /// Nil when the header doesn't say within the bytes the scanner reads.
    public var bitDepth: Int? {
        get { facts.bitDepth }
        set { facts.bitDepth = newValue }
    }

    /// Whether the image has an alpha channel, where the header says so.
    public var hasAlpha: Bool? {
        get { facts.hasAlpha }
        set { facts.hasAlpha = newValue }
    }

    /// JPEG progressive coding, PNG Adam7 interlacing; nil when the header doesn't say.
    public var isProgressive: Bool? {
        get { facts.isProgressive }
        set { facts.isProgressive = newValue }
    }

    /// Whether the file is an animation: more than one frame shown in turn. Settled by the
    /// header where it can be (a PNG that reaches its image data without `acTL` is still; a
    /// WebP's VP8X flag; an ISOBMFF file's image-sequence brands; JPEG XL's `have_animation`);
    /// nil where only a walk of the frames can tell (a GIF in full mode). Animation mode
    /// counts the frames and settles it for every format it walks.
    public var isAnimated: Bool? {
        get { facts.isAnimated }
        set { facts.isAnimated = newValue }
    }

    /// Number of frames or entries where the header states it (APNG `num_frames`, ICO and ICNS
    /// entries, DCX pages), and in animation mode the frames counted. Files state up to
    /// 2^32 − 1; where `Int` is 32 bits, counts above `Int.max` read as `Int.max`.
    public var frameCount: Int? {
        get { facts.frameCount }
        set { facts.frameCount = newValue }
    }

    /// `frameCount` and `loopCount` as stored, exact where `Int` is 32 bits (the C interface
    /// reports these).
    package var exactFrameCount: UInt32? { facts.storedFrameCount }
    package var exactLoopCount: UInt32? { facts.storedLoopCount }

    /// How many times the animation plays, as the file states it; 0 means forever. GIF:
    /// the NETSCAPE2.0/ANIMEXTS1.0 loop count, which browsers play that many times *plus one*
    /// (SDWebImage plays it that many times); APNG `num_plays`; WebP `ANIM`; JPEG XL
    /// `num_loops`. Nil when the file doesn't say (a GIF without the extension plays once).
    /// Where `Int` is 32 bits, counts above `Int.max` read as `Int.max`.
    public var loopCount: Int? {
        get { facts.loopCount }
        set { facts.loopCount = newValue }
    }

    /// Animation mode: the sum of the frames' declared delays, in milliseconds (each delay
    /// rounded to the microsecond). Nil in the other modes.
    public var duration: Double? {
        animationTotals.map { Double($0.durations.declaredMicros) / 1000 }
    }

    /// Animation mode: the time a browser or SDWebImage takes to play the frames once, in
    /// milliseconds: each delay under 11 ms counts as 100 ms (`FrameInfo.playbackDelay`).
    public var playbackDuration: Double? {
        animationTotals.map { Double($0.durations.playbackMicros) / 1000 }
    }

    /// Animation mode: the largest frame rectangle by area (the first of equal ones).
    public var largestFrame: FrameRect? {
        animationTotals.map {
            FrameRect(x: Int(clamping: $0.largestX), y: Int(clamping: $0.largestY),
                      width: Int(clamping: $0.largestWidth), height: Int(clamping: $0.largestHeight))
        }
    }

    /// HEIF and AVIF: the primary item's clean aperture (`clap`), the crop a decoder applies
    /// before the orientation. Nil when the file has none.
    public var cleanAperture: CleanAperture? {
        get { cleanApertureFractions.map { CleanAperture($0, imageWidth: facts.width, imageHeight: facts.height) } }
        set { cleanApertureFractions = newValue?.fractions }
    }

    /// SVG: the root element's `width`, `height` and `viewBox` as written, from which `width`
    /// and `height` were computed.
    public var svg: SVGSize? {
        get {
            guard case .svg(let size) = details else { return nil }
            return size
        }
        set { details = newValue.map(Details.svg) ?? .none }
    }

    /// EPS: the preview a DOS EPS binary header holds beside the PostScript, or nil. The size
    /// is the PostScript's bounding box, never the preview's.
    public var epsPreview: EPSPreview? {
        get {
            guard case .epsPreview(let preview) = details else { return nil }
            return preview
        }
        set { details = newValue.map(Details.epsPreview) ?? .none }
    }

    /// Dots per inch, where the file states a resolution in physical units (PNG `pHYs` in
    /// metres, JFIF density, EXIF and TIFF `XResolution`/`YResolution`, BMP, PSD), rounded to
    /// the nearest integer. Nil when absent, unitless, or in dimensions-only mode.
    public var dpi: Resolution? {
        get {
            guard extras.dpiX != 0 && extras.dpiY != 0 else { return nil }
            return Resolution(x: Int(clamping: extras.dpiX), y: Int(clamping: extras.dpiY))
        }
        set {
            extras.dpiX = UInt32(clamping: newValue?.x ?? 0)
            extras.dpiY = UInt32(clamping: newValue?.y ?? 0)
        }
    }

    /// The colour description the file declares in ITU-T H.273 code points (AVIF and HEIF
    /// `colr nclx`, PNG `cICP`, JPEG XL's enumerated colour encoding). Nil when it declares none.
    public var cicp: CICP? {
        get { extras.cicp }
        set { extras.cicp = newValue }
    }

    /// Whether an ICC profile is embedded, where the format can carry one and full mode looked.
    public var hasICCProfile: Bool? {
        get { extras.hasICCProfile }
        set { extras.hasICCProfile = newValue }
    }

    /// Whether a gain map accompanies the image, so that it can be shown as HDR: Ultra HDR and
    /// ISO 21496-1 JPEGs, Apple's HDR gain maps, AVIF and HEIF `tmap` items.
    public var hasGainMap: Bool? {
        get { extras.hasGainMap }
        set { extras.hasGainMap = newValue }
    }

    /// Whether the image is meant to be shown as HDR: a PQ or HLG transfer in its CICP, or a
    /// gain map. False when the file declares an SDR transfer or was searched for a gain map
    /// and has none; nil when it can't tell.
    public var isHDR: Bool? {
        let cicp = extras.cicp
        if cicp?.hasHDRTransfer == true || extras.hasGainMap == true { return true }
        if cicp != nil || extras.hasGainMap == false { return false }
        return nil
    }

    /// PNG Adam7, a GIF's first image interlaced; nil when the header doesn't say.
    public var isInterlaced: Bool? {
        get { extras.isInterlaced }
        set { extras.isInterlaced = newValue }
    }

    /// Whether an embedded video follows the image: Google's Motion Photo and MicroVideo, and
    /// Samsung's, as their XMP declares them.
    public var isMotionPhoto: Bool? {
        get { extras.isMotionPhoto }
        set { extras.isMotionPhoto = newValue }
    }

    /// Why the scanner answered before full mode had settled everything, or nil for a
    /// complete answer: the input ended (`truncated`), a limit stopped the search
    /// (`limitExceeded`), or a structure after the size was corrupt (`malformed`). The format
    /// and size are certain; metadata past that point (such as an orientation) may be missing.
    public var partialReason: ScanFailure? = nil

    /// Whether the answer is partial: see `partialReason`.
    public var isPartial: Bool { partialReason != nil }

    /// Creates an info value; fields not given are unknown.
    public init(format: ImageFormat, width: Int, height: Int, orientation: Orientation? = nil) {
        self.facts = ImageFacts(format: format, width: width, height: height)
        self.facts.orientation = orientation
    }

    /// Width as displayed: after the clean aperture's crop (HEIF, AVIF), then the orientation.
    public var displayWidth: Int {
        orientation?.swapsWidthAndHeight == true ? croppedHeight : croppedWidth
    }

    /// Height as displayed: after the clean aperture's crop (HEIF, AVIF), then the orientation.
    public var displayHeight: Int {
        orientation?.swapsWidthAndHeight == true ? croppedWidth : croppedHeight
    }

    var croppedWidth: Int { cleanAperture?.width ?? width }

    var croppedHeight: Int { cleanAperture?.height ?? height }

    /// Width × height, and in animation mode × the frames counted: what `maxPixels` limits.
    /// Saturates at 2^64 − 1.
    var pixelCount: UInt64 {
        let (area, overflow) = UInt64(facts.storedWidth).multipliedReportingOverflow(by: UInt64(facts.storedHeight))
        guard !overflow else { return UInt64.max }
        guard animationTotals != nil, let frames = facts.storedFrameCount, frames > 1 else { return area }
        let (total, tooMany) = area.multipliedReportingOverflow(by: UInt64(frames))
        return tooMany ? UInt64.max : total
    }

    /// The media type for `format`.
    public var mimeType: String { format.mimeType }
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
        if isAnimated == true && frameCount == nil { text += ", animated" }
        if let frameCount { text += ", \(frameCount) \(frameCount == 1 ? "frame" : "frames")" }
        if let loopCount { text += loopCount == 0 ? ", loop forever" : ", loop \(loopCount)" }
        if let totals = animationTotals {
            let durations = totals.durations
            text += ", \(Self.seconds(durations.declaredMicros)) s"
            if durations.playbackMicros != durations.declaredMicros { text += " (played \(Self.seconds(durations.playbackMicros)) s)" }
        }
        if let dpi { text += dpi.x == dpi.y ? ", \(dpi.x) dpi" : ", \(dpi.x)x\(dpi.y) dpi" }
        if hasICCProfile == true { text += ", ICC profile" }
        if let cicp {
            text += ", CICP \(cicp.colourPrimaries)/\(cicp.transferCharacteristics)/\(cicp.matrixCoefficients)"
            text += cicp.isFullRange ? " full" : " limited"
        }
        if isHDR == true { text += hasGainMap == true ? ", HDR gain map" : ", HDR" }
        if isInterlaced == true && isProgressive != true { text += ", interlaced" }
        if isMotionPhoto == true { text += ", motion photo" }
        if let epsPreview { text += ", \(epsPreview.name) preview" }
        if let partialReason { text += ", partial (\(partialReason.code.name))" }
        return text
    }

    /// Microseconds as seconds with two decimals, rounded half up: "0.31". Integer arithmetic,
    /// so the text needs no floating-point library.
    static func seconds(_ micros: UInt64) -> String {
        let hundredths = (micros / 5_000 &+ 1) / 2
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
#endif
