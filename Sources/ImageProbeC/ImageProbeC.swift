// The C interface (Sources/CImageProbe/include/imageprobe.h), defined in Swift over the core.
// Standard library only and allocation-free, so it builds in Embedded Swift for a static
// library and for WebAssembly (Scripts/build-c.sh) as well as in the package.
import CImageProbe
#if !IMAGEPROBE_C_SINGLE_MODULE
import ImageProbe
#endif

// The scanner lives in the caller's memory: a magic word, then the scanner. The word is set
// by imageprobe_init and checked by every other call, so memory that was never initialised
// (or was overwritten) is refused with IMAGEPROBE_ERROR_ARGUMENT instead of read as a scanner.
private let magic: UInt64 = 0x4542_4F52_5047_4D49  // "IMGPROBE", little-endian
private let scannerOffset = max(16, MemoryLayout<HeaderScanner>.alignment)

@_cdecl("imageprobe_scanner_size")
public func imageprobeScannerSize() -> UInt { UInt(bitPattern: scannerOffset + MemoryLayout<HeaderScanner>.size) }

@_cdecl("imageprobe_scanner_align")
public func imageprobeScannerAlign() -> UInt { UInt(bitPattern: max(8, MemoryLayout<HeaderScanner>.alignment)) }

/// The scanner in `memory`, when imageprobe_init set it up there; nil otherwise.
private func scanner(_ memory: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<HeaderScanner>? {
    guard let memory, UInt(bitPattern: Int(bitPattern: memory)) % UInt(imageprobeScannerAlign()) == 0 else { return nil }
    // SAFETY: the caller gives imageprobe_scanner_size() bytes (the header's contract); the
    // first 8 are read as a word, at an address aligned for it (checked above).
    guard memory.load(as: UInt64.self) == magic else { return nil }
    // SAFETY: the magic word says imageprobe_init put a scanner at this offset.
    return (memory + scannerOffset).assumingMemoryBound(to: HeaderScanner.self)
}

@_cdecl("imageprobe_init")
public func imageprobeInit(_ memory: UnsafeMutableRawPointer?, _ options: UnsafePointer<imageprobe_options>?) -> Int32 {
    guard let memory, UInt(bitPattern: Int(bitPattern: memory)) % UInt(imageprobeScannerAlign()) == 0 else {
        return Int32(IMAGEPROBE_ERROR_ARGUMENT)
    }
    let configured = options.map { scanOptions($0.pointee) } ?? ScanOptions()
    // SAFETY: imageprobe_scanner_size() bytes at imageprobe_scanner_align() (the header's
    // contract, alignment checked above): the scanner at its offset, then the word that says so.
    (memory + scannerOffset).initializeMemory(as: HeaderScanner.self, repeating: HeaderScanner(options: configured), count: 1)
    memory.storeBytes(of: magic, as: UInt64.self)
    return Int32(IMAGEPROBE_NEED_MORE)
}

/// The scanner's options from C's (zero: the default).
func scanOptions(_ options: imageprobe_options) -> ScanOptions {
    var scanOptions = ScanOptions()
    switch options.mode {
    case Int32(IMAGEPROBE_MODE_DIMENSIONS_ONLY): scanOptions.mode = .dimensionsOnly
    case Int32(IMAGEPROBE_MODE_ANIMATION): scanOptions.mode = .animation
    default: scanOptions.mode = .full
    }
    if options.max_bytes > 0 { scanOptions.exactMaxBytes = options.max_bytes }  // 64 bits on every target
    if options.input_length > 0 { scanOptions.inputLength = options.input_length }
    // Int(clamping:) keeps each in range where Int is 32 bits (wasm32): a limit above Int.max
    // can't be set there (SPEC.md §1.10).
    if options.max_width > 0 { scanOptions.maxWidth = Int(clamping: options.max_width) }
    if options.max_height > 0 { scanOptions.maxHeight = Int(clamping: options.max_height) }
    if options.max_entries > 0 { scanOptions.maxEntries = Int(clamping: options.max_entries) }
    if options.max_depth > 0 { scanOptions.maxDepth = Int(clamping: options.max_depth) }
    if options.max_pixels > 0 { scanOptions.exactMaxPixels = options.max_pixels }  // 64 bits on every target
    return scanOptions
}

@_cdecl("imageprobe_feed")
public func imageprobeFeed(
    _ memory: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ length: UInt,
    _ out: UnsafeMutablePointer<imageprobe_info>?
) -> Int32 {
    guard let out else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    guard let state = scanner(memory) else { return misuse("the scanner was not set up by imageprobe_init", out) }
    guard bytes != nil || length == 0 else { return misuse("NULL bytes with a non-zero length", out) }
    // size_t, so no length is negative here; the chunk fits in memory, so in an Int.
    let count = Int(clamping: length)
    let status = state.pointee.feed(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: count))
    return report(status, state, into: out)
}

@_cdecl("imageprobe_finish")
public func imageprobeFinish(_ memory: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<imageprobe_info>?) -> Int32 {
    guard let out else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    guard let state = scanner(memory) else { return misuse("the scanner was not set up by imageprobe_init", out) }
    let status = state.pointee.finish()
    return report(status, state, into: out)
}

@_cdecl("imageprobe_pending_skip")
public func imageprobePendingSkip(_ memory: UnsafeRawPointer?) -> UInt64 {
    scanner(UnsafeMutableRawPointer(mutating: memory))?.pointee.pendingSkip ?? 0
}

@_cdecl("imageprobe_skip")
public func imageprobeSkip(_ memory: UnsafeMutableRawPointer?, _ count: UInt64) -> UInt64 {
    scanner(memory)?.pointee.skip(count) ?? 0
}

/// Reports a call the header's contract doesn't allow: IMAGEPROBE_ERROR_ARGUMENT, with `why`.
func misuse(_ why: StaticString, _ out: UnsafeMutablePointer<imageprobe_info>) -> Int32 {
    out.pointee = imageprobe_info()
    copy(StaticString("argument").utf8Bytes, to: &out.pointee.error)
    copy(why.utf8Bytes, to: &out.pointee.message)
    return Int32(IMAGEPROBE_ERROR_ARGUMENT)
}

/// Fills `out` from `status`; returns the status's C code. The answer is written in place: the
/// struct is large, and building it aside cost a copy of it.
private func report(_ status: ScanStatus, _ scanner: UnsafeMutablePointer<HeaderScanner>, into out: UnsafeMutablePointer<imageprobe_info>) -> Int32 {
    clear(out)
    out.pointee.bytes_read = scanner.pointee.bytesRead
    out.pointee.bytes_skipped = scanner.pointee.bytesSkipped
    switch status {
    case .needMore(let count):
        out.pointee.needed = UInt64(count)
        return Int32(IMAGEPROBE_NEED_MORE)
    case .done(let image):
        fill(image, into: &out.pointee)
        return Int32(IMAGEPROBE_DONE)
    case .unsupported(let failure):
        fill(failure, into: &out.pointee)
        return Int32(IMAGEPROBE_UNSUPPORTED)
    case .refused(let image, let failure):
        // The refused image's format and size, then why (tooManyPixels).
        fill(image, into: &out.pointee)
        fill(failure, into: &out.pointee)
        return Int32(IMAGEPROBE_UNSUPPORTED)
    }
}

/// Sets `info` to an answer with every value unknown, in place.
func clear(_ out: UnsafeMutablePointer<imageprobe_info>) {
    out.pointee = imageprobe_info()
    clearValues(&out.pointee)
}

/// `clear`'s values that are not zero: -1 (unknown) and NaN.
private func clearValues(_ info: inout imageprobe_info) {
    info.width = -1
    info.height = -1
    info.display_width = -1
    info.display_height = -1
    info.bit_depth = -1
    info.has_alpha = -1
    info.is_progressive = -1
    info.is_animated = -1
    info.frame_count = -1
    info.loop_count = -1
    info.hdr = -1
    info.gain_map = -1
    info.icc_profile = -1
    info.interlaced = -1
    info.motion_photo = -1
    info.duration_ms = .nan
    info.playback_duration_ms = .nan
}

/// An image's facts into `info`.
func fill(_ image: ImageInfo, into info: inout imageprobe_info) {
    info.format = Int32(image.format.number)
    copy(image.format.spelledName(), to: &info.format_name)
    copy(image.format.spelledMIMEType(), to: &info.mime_type)
    info.width = Int64(image.width)
    info.height = Int64(image.height)
    info.display_width = Int64(image.displayWidth)
    info.display_height = Int64(image.displayHeight)
    info.orientation = Int32(image.orientation?.rawValue ?? 0)
    info.bit_depth = image.bitDepth.map { Int32(clamping: $0) } ?? -1
    info.has_alpha = flag(image.hasAlpha)
    info.is_progressive = flag(image.isProgressive)
    info.is_animated = flag(image.isAnimated)
    // The stored counts, exact on every target (the Int views saturate where Int is 32 bits).
    info.frame_count = image.exactFrameCount.map { Int64($0) } ?? -1
    info.loop_count = image.exactLoopCount.map { Int64($0) } ?? -1
    info.duration_ms = image.duration ?? .nan
    info.playback_duration_ms = image.playbackDuration ?? .nan
    if let preview = image.epsPreview { copy(preview.spelled(), to: &info.eps_preview) }
    info.hdr = flag(image.isHDR)
    info.gain_map = flag(image.hasGainMap)
    info.icc_profile = flag(image.hasICCProfile)
    info.interlaced = flag(image.isInterlaced)
    info.motion_photo = flag(image.isMotionPhoto)
    if let cicp = image.cicp {
        info.has_cicp = 1
        info.cicp = (cicp.colourPrimaries, cicp.transferCharacteristics, cicp.matrixCoefficients, cicp.isFullRange ? 1 : 0)
    }
    // Stored as 32 bits; above Int32.max (no real file) they saturate alike on every target.
    info.dpi_x = Int32(clamping: image.dpi?.x ?? 0)
    info.dpi_y = Int32(clamping: image.dpi?.y ?? 0)
    if let reason = image.partialReason {
        info.is_partial = 1
        copy(reason.code.spelled(), to: &info.error)
        copy(reason.spelledMessage(), to: &info.message)
    }
}

/// A scanner's failure into `info`.
func fill(_ failure: ScanFailure, into info: inout imageprobe_info) {
    copy(failure.code.spelled(), to: &info.error)
    copy(failure.spelledMessage(), to: &info.message)
    if let format = failure.format {
        info.detected_format = Int32(format.number)
        copy(format.spelledName(), to: &info.detected_format_name)
    }
}

private func flag(_ value: Bool?) -> Int8 {
    guard let value else { return -1 }
    return value ? 1 : 0
}

/// Copies `utf8` into a fixed C array, NUL-terminated, cut at the array's size.
func copy<Storage>(_ text: StaticString, to storage: inout Storage) {
    copy(text.utf8Bytes, to: &storage)
}

func copy<Storage>(_ utf8: UnsafeRawBufferPointer, to storage: inout Storage) {
    withUnsafeMutableBytes(of: &storage) { copy(utf8, into: $0) }
}

/// `copy(_:to:)`'s work, compiled once rather than once per array size.
@inline(never)
func copy(_ utf8: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer) {
    guard buffer.count > 0 else { return }
    let count = min(utf8.count, buffer.count - 1)
    // SAFETY: count <= utf8.count and count < buffer.count.
    if count > 0 { buffer.baseAddress.unsafelyUnwrapped.copyMemory(from: utf8.baseAddress.unsafelyUnwrapped, byteCount: count) }
    buffer[count] = 0
}
