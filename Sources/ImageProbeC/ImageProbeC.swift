// The C interface (Sources/CImageProbe/include/imageprobe.h), defined in Swift over the core.
// Standard library only and allocation-free, so it builds in Embedded Swift for a static
// library and for WebAssembly (Scripts/build-c.sh) as well as in the package.
import CImageProbe
#if !IMAGEPROBE_C_SINGLE_MODULE
import ImageProbe
#endif

// The scanner lives in the caller's memory: these are its size and alignment.
@_cdecl("imageprobe_scanner_size")
public func imageprobeScannerSize() -> UInt { UInt(MemoryLayout<HeaderScanner>.size) }

@_cdecl("imageprobe_scanner_align")
public func imageprobeScannerAlign() -> UInt { UInt(MemoryLayout<HeaderScanner>.alignment) }

@_cdecl("imageprobe_init")
public func imageprobeInit(_ scanner: UnsafeMutableRawPointer, _ options: UnsafePointer<imageprobe_options>?) {
    var scanOptions = ScanOptions()
    if let options = options?.pointee {
        switch options.mode {
        case Int32(IMAGEPROBE_MODE_DIMENSIONS_ONLY): scanOptions.mode = .dimensionsOnly
        case Int32(IMAGEPROBE_MODE_ANIMATION): scanOptions.mode = .animation
        default: scanOptions.mode = .full
        }
        if options.max_bytes > 0 { scanOptions.maxBytes = Int(clamping: options.max_bytes) }
        if options.input_length > 0 { scanOptions.inputLength = options.input_length }
    }
    // SAFETY: the caller gives imageprobe_scanner_size() bytes at imageprobe_scanner_align().
    scanner.initializeMemory(as: HeaderScanner.self, repeating: HeaderScanner(options: scanOptions), count: 1)
}

@_cdecl("imageprobe_feed")
public func imageprobeFeed(
    _ scanner: UnsafeMutableRawPointer, _ bytes: UnsafePointer<UInt8>?, _ length: UInt,
    _ out: UnsafeMutablePointer<imageprobe_info>
) -> Int32 {
    // SAFETY: `scanner` was set up by imageprobe_init (the header's contract).
    let state = scanner.assumingMemoryBound(to: HeaderScanner.self)
    // size_t, so no length is negative here; NULL with a length is taken as no bytes.
    let count = bytes == nil ? 0 : Int(clamping: length)
    let status = state.pointee.feed(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: count))
    return report(status, state.pointee, into: out)
}

@_cdecl("imageprobe_finish")
public func imageprobeFinish(_ scanner: UnsafeMutableRawPointer, _ out: UnsafeMutablePointer<imageprobe_info>) -> Int32 {
    // SAFETY: as in imageprobe_feed.
    let state = scanner.assumingMemoryBound(to: HeaderScanner.self)
    let status = state.pointee.finish()
    return report(status, state.pointee, into: out)
}

@_cdecl("imageprobe_pending_skip")
public func imageprobePendingSkip(_ scanner: UnsafeRawPointer) -> UInt64 {
    // SAFETY: as in imageprobe_feed.
    scanner.assumingMemoryBound(to: HeaderScanner.self).pointee.pendingSkip
}

@_cdecl("imageprobe_skip")
public func imageprobeSkip(_ scanner: UnsafeMutableRawPointer, _ count: UInt64) -> UInt64 {
    // SAFETY: as in imageprobe_feed.
    scanner.assumingMemoryBound(to: HeaderScanner.self).pointee.skip(count)
}

/// Fills `out` from `status`; returns the status's C code.
private func report(_ status: ScanStatus, _ scanner: HeaderScanner, into out: UnsafeMutablePointer<imageprobe_info>) -> Int32 {
    var info = imageprobe_info()
    info.bytes_read = scanner.bytesRead
    info.bytes_skipped = scanner.bytesSkipped
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
    info.duration_ms = .nan
    info.playback_duration_ms = .nan
    let code: Int32
    switch status {
    case .needMore(let count):
        info.needed = UInt64(count)
        code = Int32(IMAGEPROBE_NEED_MORE)
    case .done(let image):
        info.format = Int32(image.format.number)
        copy(image.format.name, to: &info.format_name)
        copy(image.mimeType, to: &info.mime_type)
        info.width = Int64(image.width)
        info.height = Int64(image.height)
        info.display_width = Int64(image.displayWidth)
        info.display_height = Int64(image.displayHeight)
        info.orientation = Int32(image.orientation?.rawValue ?? 0)
        info.bit_depth = image.bitDepth.map { Int32(clamping: $0) } ?? -1
        info.has_alpha = flag(image.hasAlpha)
        info.is_progressive = flag(image.isProgressive)
        info.is_animated = flag(image.isAnimated)
        info.frame_count = image.frameCount.map { Int64($0) } ?? -1
        info.loop_count = image.loopCount.map { Int64($0) } ?? -1
        info.duration_ms = image.duration ?? .nan
        info.playback_duration_ms = image.playbackDuration ?? .nan
        if let preview = image.epsPreview { copy(preview.name, to: &info.eps_preview) }
        if let reason = image.partialReason {
            info.is_partial = 1
            copy(reason.code.name, to: &info.error)
            copy(reason.message, to: &info.message)
        }
        code = Int32(IMAGEPROBE_DONE)
    case .unsupported(let failure):
        copy(failure.code.name, to: &info.error)
        copy(failure.message, to: &info.message)
        if let format = failure.format {
            info.detected_format = Int32(format.number)
            copy(format.name, to: &info.detected_format_name)
        }
        code = Int32(IMAGEPROBE_UNSUPPORTED)
    }
    out.pointee = info
    return code
}

private func flag(_ value: Bool?) -> Int8 {
    guard let value else { return -1 }
    return value ? 1 : 0
}

/// Copies `text`'s UTF-8 into a fixed C array, NUL-terminated, cut at the array's size.
/// The texts are the core's literals: iterating them allocates nothing.
private func copy<Storage>(_ text: String, to storage: inout Storage) {
    withUnsafeMutableBytes(of: &storage) { buffer in
        guard buffer.count > 0 else { return }
        var index = 0
        for byte in text.utf8 where index < buffer.count - 1 {
            buffer[index] = byte
            index += 1
        }
        buffer[index] = 0
    }
}
