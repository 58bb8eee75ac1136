// The range planner's C interface (imageprobe.h, "The URL probe strategy"): the core's
// RangePlanner in the caller's memory, driven by any HTTP client. Standard library only and
// allocation-free, as the scanner's functions are.
import CImageProbe
#if !IMAGEPROBE_C_SINGLE_MODULE
import ImageProbe
#endif

/// The planner, after a magic word of its own.
struct PlannerState {
    var planner: RangePlanner
}

private let plannerMagic: UInt64 = 0x524E_414C_5047_4D49  // "IMGPLANR", little-endian
private let plannerOffset = max(16, MemoryLayout<PlannerState>.alignment)

@_cdecl("imageprobe_planner_size")
public func imageprobePlannerSize() -> UInt { UInt(bitPattern: plannerOffset + MemoryLayout<PlannerState>.size) }

/// The planner in `memory`, when imageprobe_planner_init set it up there; nil otherwise.
private func planner(_ memory: UnsafeRawPointer?) -> UnsafeMutablePointer<PlannerState>? {
    guard let memory, UInt(bitPattern: Int(bitPattern: memory)) % UInt(imageprobeScannerAlign()) == 0 else { return nil }
    // SAFETY: the caller gives imageprobe_planner_size() bytes (the header's contract); the
    // first 8 are read as a word, at an address aligned for it (checked above).
    guard memory.load(as: UInt64.self) == plannerMagic else { return nil }
    // SAFETY: the magic word says imageprobe_planner_init put a planner at this offset.
    return UnsafeMutableRawPointer(mutating: memory + plannerOffset).assumingMemoryBound(to: PlannerState.self)
}

@_cdecl("imageprobe_planner_defaults")
public func imageprobePlannerDefaults(_ out: UnsafeMutablePointer<imageprobe_planner_options>?) {
    guard let out else { return }
    let defaults = RangePlanner.Configuration()
    var options = imageprobe_planner_options()
    options.max_bytes = defaults.maxBytes
    options.max_requests = UInt32(clamping: defaults.maxRequests)
    options.max_metadata_requests = UInt32(clamping: defaults.maxMetadataRequests)
    options.max_redirects = UInt32(clamping: defaults.maxRedirects)
    options.request_growth = UInt32(clamping: defaults.requestGrowth)
    options.initial_range = defaults.initialRangeLength
    options.minimum_request = defaults.minimumRequest
    options.jump_threshold = defaults.jumpThreshold
    out.pointee = options
}

@_cdecl("imageprobe_planner_init")
public func imageprobePlannerInit(
    _ memory: UnsafeMutableRawPointer?, _ options: UnsafePointer<imageprobe_planner_options>?,
    _ url: UnsafePointer<CChar>?, _ urlLength: UInt
) -> Int32 {
    guard let memory, UInt(bitPattern: Int(bitPattern: memory)) % UInt(imageprobeScannerAlign()) == 0,
          url != nil || urlLength == 0 else {
        return Int32(IMAGEPROBE_ERROR_ARGUMENT)
    }
    // No options: the defaults' options, converted as any others (they give the defaults),
    // rather than a second set of the defaults' values.
    var knobs = imageprobe_planner_options()
    if let options { knobs = options.pointee } else { imageprobePlannerDefaults(&knobs) }
    knobs.scan.input_length = 0
    var configuration = RangePlanner.Configuration()
    configuration.scanOptions = scanOptions(knobs.scan)
    configuration.maxBytes = knobs.max_bytes
    configuration.maxRequests = Int(clamping: knobs.max_requests)
    configuration.maxMetadataRequests = Int(clamping: knobs.max_metadata_requests)
    configuration.maxRedirects = Int(clamping: knobs.max_redirects)
    configuration.requestGrowth = UInt64(knobs.request_growth)
    configuration.initialRangeLength = knobs.initial_range
    configuration.minimumRequest = knobs.minimum_request
    configuration.jumpThreshold = knobs.jump_threshold
    // SAFETY: `urlLength` bytes at `url` (the header's contract).
    let text = UnsafeRawBufferPointer(start: urlLength > 0 ? url : nil, count: Int(clamping: urlLength))
    // SAFETY: imageprobe_planner_size() bytes, aligned (the header's contract, checked above):
    // the state at its offset, then the word that says so.
    (memory + plannerOffset).initializeMemory(
        as: PlannerState.self, repeating: PlannerState(planner: RangePlanner(configuration: configuration, url: text)), count: 1)
    memory.storeBytes(of: plannerMagic, as: UInt64.self)
    return Int32(IMAGEPROBE_NEED_MORE)
}

@_cdecl("imageprobe_planner_next")
public func imageprobePlannerNext(
    _ memory: UnsafeMutableRawPointer?, _ request: UnsafeMutablePointer<imageprobe_plan_request>?,
    _ out: UnsafeMutablePointer<imageprobe_info>?
) -> Int32 {
    guard let out, let request else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    guard let state = planner(memory) else { return misuse("the planner was not set up by imageprobe_planner_init", out) }
    // Written in place: the struct is large, and building it aside cost a copy of it.
    clear(out)
    out.pointee.bytes_read = state.pointee.planner.bytesReceived
    if let next = state.pointee.planner.nextRequest() {
        var planned = imageprobe_plan_request()
        planned.first = next.first
        planned.last = next.last
        planned.if_range = switch next.ifRange {
        case .entityTag: Int32(IMAGEPROBE_IF_RANGE_ETAG)
        case .lastModified: Int32(IMAGEPROBE_IF_RANGE_LAST_MODIFIED)
        case nil: Int32(IMAGEPROBE_IF_RANGE_NONE)
        }
        if let origin = state.pointee.planner.origin {
            planned.port = Int32(origin.port)
            planned.secure = origin.secure ? 1 : 0
        }
        planned.wait_seconds = Int32(clamping: next.wait)
        request.pointee = planned
        return Int32(IMAGEPROBE_PLAN_SEND)
    }
    // The answer read where the planner keeps it, not copied out as `next()`'s action.
    switch state.pointee.planner.settled {
    case .done(let image)?:
        fill(image, into: &out.pointee)
        return Int32(IMAGEPROBE_DONE)
    case .failed(let failure)?:
        if let refused = failure.refusedImage { fill(refused, into: &out.pointee) }
        if let scanFailure = failure.scanFailure {
            fill(scanFailure, into: &out.pointee)
        } else {
            copy(failure.code.spelled(), to: &out.pointee.error)
            copy(failure.spelledReason(), to: &out.pointee.message)
        }
        copy(failure.code.spelled(), to: &out.pointee.fetch_error)
        out.pointee.http_status = Int32(clamping: failure.status ?? 0)
        return Int32(IMAGEPROBE_UNSUPPORTED)
    case .notModified?:
        return Int32(IMAGEPROBE_PLAN_NOT_MODIFIED)
    case .send?, nil:
        // Unreachable: the planner settles with `.done`, `.notModified` or `.failed` exactly
        // when it sends nothing.
        return Int32(IMAGEPROBE_ERROR_ARGUMENT)
    }
}

@_cdecl("imageprobe_planner_revalidate")
public func imageprobePlannerRevalidate(
    _ memory: UnsafeMutableRawPointer?, _ entityTag: UnsafePointer<CChar>?, _ entityTagLength: UInt,
    _ lastModified: UnsafePointer<CChar>?, _ lastModifiedLength: UInt
) -> Int32 {
    guard let state = planner(memory), entityTag != nil || entityTagLength == 0, lastModified != nil || lastModifiedLength == 0 else {
        return Int32(IMAGEPROBE_ERROR_ARGUMENT)
    }
    // SAFETY: `entityTagLength` and `lastModifiedLength` bytes at the caller's pointers (the
    // header's contract).
    let tag = UnsafeRawBufferPointer(start: entityTagLength > 0 ? entityTag : nil, count: Int(clamping: entityTagLength))
    let date = UnsafeRawBufferPointer(start: lastModifiedLength > 0 ? lastModified : nil, count: Int(clamping: lastModifiedLength))
    return state.pointee.planner.revalidate(entityTag: tag, lastModified: date) ? 0 : Int32(IMAGEPROBE_ERROR_ARGUMENT)
}

@_cdecl("imageprobe_planner_freshness")
public func imageprobePlannerFreshness(_ memory: UnsafeRawPointer?) -> Int64 {
    guard let state = planner(memory), let seconds = state.pointee.planner.freshness else { return -1 }
    return Int64(clamping: seconds)
}

@_cdecl("imageprobe_planner_text")
public func imageprobePlannerText(
    _ memory: UnsafeRawPointer?, _ which: Int32, _ out: UnsafeMutablePointer<CChar>?, _ capacity: UInt
) -> UInt {
    // SAFETY: `capacity` writable bytes at `out` (the header's contract).
    let buffer = UnsafeMutableRawBufferPointer(start: capacity > 0 ? UnsafeMutableRawPointer(out) : nil, count: Int(clamping: capacity))
    if which == Int32(IMAGEPROBE_TEXT_USER_AGENT) { return UInt(bitPattern: copyText(RangePlanner.userAgent.utf8Bytes, buffer)) }
    guard let state = planner(memory) else { return 0 }
    return UInt(bitPattern: state.pointee.planner.withText(which) { copyText($0, buffer) })
}

/// Copies `text` into `buffer` with a NUL after it when there is room; returns its length.
private func copyText(_ text: UnsafeRawBufferPointer, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    let count = min(text.count, max(0, buffer.count &- 1))
    if count > 0, let target = buffer.baseAddress, let source = text.baseAddress { target.copyMemory(from: source, byteCount: count) }
    if buffer.count > 0 { buffer[count] = 0 }
    return text.count
}

@_cdecl("imageprobe_planner_header")
public func imageprobePlannerHeader(
    _ memory: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?, _ nameLength: UInt,
    _ value: UnsafePointer<CChar>?, _ valueLength: UInt
) -> Int32 {
    guard let state = planner(memory), name != nil || nameLength == 0, value != nil || valueLength == 0 else {
        return Int32(IMAGEPROBE_ERROR_ARGUMENT)
    }
    // SAFETY: `nameLength` and `valueLength` bytes at the caller's pointers (the header's contract).
    let nameBytes = UnsafeRawBufferPointer(start: nameLength > 0 ? name : nil, count: Int(clamping: nameLength))
    let valueBytes = UnsafeRawBufferPointer(start: valueLength > 0 ? value : nil, count: Int(clamping: valueLength))
    state.pointee.planner.field(name: nameBytes, value: valueBytes)
    return 0
}

@_cdecl("imageprobe_planner_head_line")
public func imageprobePlannerHeadLine(_ memory: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ length: UInt) -> Int32 {
    guard let state = planner(memory), bytes != nil || length == 0 else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    // SAFETY: `length` bytes at `bytes` (the header's contract).
    return state.pointee.planner.headLine(UnsafeRawBufferPointer(start: length > 0 ? bytes : nil, count: Int(clamping: length))) ? 1 : 0
}

@_cdecl("imageprobe_planner_wire")
public func imageprobePlannerWire(_ memory: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ length: UInt) -> Int32 {
    guard let state = planner(memory), bytes != nil || length == 0 else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    // SAFETY: `length` bytes at `bytes` (the header's contract).
    switch state.pointee.planner.wire(UnsafeRawBufferPointer(start: length > 0 ? bytes : nil, count: Int(clamping: length))) {
    case .readMore: return Int32(IMAGEPROBE_WIRE_MORE)
    case .exchangeEnded(let reusable): return Int32(reusable ? IMAGEPROBE_WIRE_ENDED_REUSABLE : IMAGEPROBE_WIRE_ENDED)
    }
}

@_cdecl("imageprobe_planner_wire_closed")
public func imageprobePlannerWireClosed(_ memory: UnsafeMutableRawPointer?) -> Int32 {
    guard let state = planner(memory) else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    state.pointee.planner.wireClosed()
    return 0
}

@_cdecl("imageprobe_planner_drainable")
public func imageprobePlannerDrainable(_ memory: UnsafeRawPointer?) -> Int32 {
    (planner(memory)?.pointee.planner.drainable ?? false) ? 1 : 0
}

@_cdecl("imageprobe_planner_head")
public func imageprobePlannerHead(_ memory: UnsafeMutableRawPointer?, _ status: Int32) -> Int32 {
    guard let state = planner(memory) else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    return state.pointee.planner.head(status: Int(status)) ? 1 : 0
}

@_cdecl("imageprobe_planner_body")
public func imageprobePlannerBody(_ memory: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ length: UInt) -> Int32 {
    guard let state = planner(memory), bytes != nil || length == 0 else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    // SAFETY: `length` bytes at `bytes` (the header's contract).
    return state.pointee.planner.body(UnsafeRawBufferPointer(start: length > 0 ? bytes : nil, count: Int(clamping: length))) ? 1 : 0
}

@_cdecl("imageprobe_planner_received")
public func imageprobePlannerReceived(_ memory: UnsafeMutableRawPointer?, _ count: UInt64) -> Int32 {
    guard let state = planner(memory) else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    return state.pointee.planner.received(count) ? 1 : 0
}

@_cdecl("imageprobe_planner_end")
public func imageprobePlannerEnd(_ memory: UnsafeMutableRawPointer?, _ how: Int32) -> Int32 {
    guard let state = planner(memory) else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    // The value first, then one call: `end` is compiled in once, not once per case.
    let end: RangePlanner.BodyEnd
    switch how {
    case Int32(IMAGEPROBE_BODY_COMPLETE): end = .complete
    case Int32(IMAGEPROBE_BODY_STOPPED): end = .stopped
    case Int32(IMAGEPROBE_BODY_CLOSED): end = .closed
    default: return Int32(IMAGEPROBE_ERROR_ARGUMENT)
    }
    state.pointee.planner.end(end)
    return 0
}

@_cdecl("imageprobe_planner_fail")
public func imageprobePlannerFail(_ memory: UnsafeMutableRawPointer?, _ what: Int32) -> Int32 {
    guard let state = planner(memory) else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    guard what >= 0, what <= 255, let failure = RangePlanner.TransportFailure(rawValue: UInt8(what)) else {
        return Int32(IMAGEPROBE_ERROR_ARGUMENT)
    }
    state.pointee.planner.fail(failure)
    return 0
}

@_cdecl("imageprobe_planner_bytes_received")
public func imageprobePlannerBytesReceived(_ memory: UnsafeRawPointer?) -> UInt64 {
    planner(memory)?.pointee.planner.bytesReceived ?? 0
}

@_cdecl("imageprobe_planner_requests")
public func imageprobePlannerRequests(_ memory: UnsafeRawPointer?) -> UInt32 {
    UInt32(clamping: planner(memory)?.pointee.planner.requestCount ?? 0)
}

@_cdecl("imageprobe_address_parse")
public func imageprobeAddressParse(_ text: UnsafePointer<CChar>?, _ length: UInt, _ out: UnsafeMutablePointer<UInt8>?) -> Int32 {
    guard let out, text != nil || length == 0 else { return 0 }
    // SAFETY: `length` bytes at `text`, 16 writable at `out` (the header's contract).
    let bytes = UnsafeRawBufferPointer(start: length > 0 ? text : nil, count: Int(clamping: length))
    return Int32(AddressText.parse(bytes, into: UnsafeMutableRawBufferPointer(start: out, count: 16)))
}

@_cdecl("imageprobe_address_check")
public func imageprobeAddressCheck(
    _ address: UnsafePointer<UInt8>?, _ length: UInt, _ allow: UnsafePointer<CChar>?, _ allowLength: UInt,
    _ message: UnsafeMutablePointer<CChar>?, _ capacity: UInt
) -> Int32 {
    guard let address, length == 4 || length == 16, allow != nil || allowLength == 0 else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    // SAFETY: `length` bytes at `address`, `allowLength` at `allow`, `capacity` writable at
    // `message` (the header's contract).
    let bytes = UnsafeRawBufferPointer(start: address, count: Int(truncatingIfNeeded: length))  // 4 or 16
    let exceptions = UnsafeRawBufferPointer(start: allowLength > 0 ? allow : nil, count: Int(clamping: allowLength))
    guard AddressPolicyRule.validExceptions(exceptions) else { return Int32(IMAGEPROBE_ERROR_ARGUMENT) }
    let buffer = UnsafeMutableRawBufferPointer(start: capacity > 0 ? UnsafeMutableRawPointer(message) : nil, count: Int(clamping: capacity))
    guard let refused = AddressPolicyRule.refusal(bytes, allowing: exceptions) else {
        _ = copyText(UnsafeRawBufferPointer(start: nil, count: 0), buffer)
        return 0
    }
    AddressPolicyRule.withRefusal(bytes, refused) { _ = copyText($0, buffer) }
    return Int32(refused.rawValue)
}
