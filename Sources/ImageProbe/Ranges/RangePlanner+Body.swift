// The body and the end of an exchange: body bytes go to the scanner, every byte off the wire
// counts against the budget, and `end` decides what comes next (the next range, a jump, a
// restart, a redirect) or settles the probe on its answer.
extension RangePlanner {
    /// How an exchange ended, as the driver saw it.
    public enum BodyEnd: Sendable {
        /// All of the body arrived.
        case complete
        /// The driver stopped reading because `head` or `body` said so.
        case stopped
        /// The connection ended before the body's end.
        case closed
    }

    /// A run of body bytes. Returns whether to go on reading: false at the answer, at a body
    /// longer than its range, or past the byte budget.
    public mutating func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard phase == .readingBody else { return false }
        let count = UInt64(bytes.count)
        bodyBytes &+= count
        if let left {
            guard count <= left else {
                refuse(.badContentRange, .bodyLongerThanRange, status: 206)
                phase = .bodyIgnored
                return false
            }
            self.left = left &- count
        }
        // Fed in place: the scanner is not copied out and back for each run of bytes.
        guard scanning else { return false }
        if scanner.feed(bytes).isTerminal { return false }
        return bytesReceived <= configuration.maxBytes
    }

    /// Bytes received off the connection (status lines, heads, interim responses, framing,
    /// chunk extensions, trailers, bodies), as the transport counts them. Returns whether the
    /// probe is still within `maxBytes`; when not, the driver stops the exchange and calls
    /// `end(.stopped)` or `fail(.limitExceeded)`.
    public mutating func received(_ count: UInt64) -> Bool {
        let (sum, overflow) = bytesReceived.addingReportingOverflow(count)
        bytesReceived = overflow ? .max : sum
        return bytesReceived <= configuration.maxBytes
    }

    /// Whether the rest of the response in flight is short enough (a known length, at most
    /// `Limits.drainBytes` left) to read through for its connection's sake. A socket-level
    /// driver asks after `wire` ended the exchange, and hands the rest to `wire` (with a short
    /// deadline) until it ends again, reusable or not.
    public var drainable: Bool {
        if discardLeft > 0 { return true }
        guard phase != .finished, let length = fields.contentLength, length >= bodyBytes else { return false }
        return length &- bodyBytes <= Limits.drainBytes
    }

    /// The exchange ended.
    public mutating func end(_ how: BodyEnd) {
        guard phase == .readingBody || phase == .bodyIgnored else {
            // Ended before a head: the connection closed.
            if phase == .awaitingHead { settleFailed(.connection, .closedBeforeHead) }
            return
        }
        if let refusal {
            if refusal.code == .resourceChanged {
                // Another version: start afresh from byte 0, once.
                guard restarts == 0 else {
                    settleFailed(.resourceChanged, .resourceChangedTwice, status: 206)
                    return
                }
                restarts &+= 1
                resetResource()
                phase = .idle
                return
            }
            settleFailed(refusal.code, refusal.reason, status: refusal.status)
            return
        }
        switch status {
        case 301, 302, 303, 307, 308:
            return followRedirect()
        case 416:
            // Nothing at or after `position`: the resource ends there.
            return conclude(ended: true)
        case 304 where isConditional:
            return settle(.notModified)
        case 429, 503:
            // Too many requests, or unavailable for now: waited out once or twice when the
            // server says how long, and that is short (RFC 9110 §10.2.3, RFC 6585 §4).
            guard let wait = fields.retryAfter else { return settleFailed(.httpStatus, .errorStatus, status: status) }
            guard wait <= Limits.retryWait, retries < Limits.retries else {
                return settleFailed(.httpStatus, .retryAfterTooLong, status: status)
            }
            retries &+= 1
            retryWait = UInt32(truncatingIfNeeded: wait)  // at most Limits.retryWait
            phase = .idle
            return
        case 200, 206:
            break  // a 200 without a refusal started a scan, as a 206 may have
        case 400...:
            return settleFailed(.httpStatus, .errorStatus, status: status)
        default:
            return settleFailed(.invalidResponse, .unexpectedStatus, status: status)
        }
        guard scanning else { return settleFailed(.invalidResponse, .noBody) }
        if overBudget && !scanEnded { return overBudgetFailure() }
        if how == .stopped { return conclude(ended: false) }
        // Content-Range ends at most at UInt64.max: the next offset may not exist.
        let (after, pastEnd) = asked.first.addingReportingOverflow(rangeLength)
        // A 200 is the whole resource; a 206 whose connection closed inside the range ends
        // the input there too.
        guard status == 206, how == .complete, !pastEnd, scanner.bytesConsumed == after else {
            return conclude(ended: true)
        }
        if sizeKnownAtRequest == nil, hasPartialAnswer() { sizeKnownAtRequest = requests }
        position = after
        var floor = max(1, configuration.minimumRequest)
        let pendingSkip = scanner.pendingSkip
        if pendingSkip >= configuration.jumpThreshold {
            let (jumped, overflow) = position.addingReportingOverflow(scanner.skip(pendingSkip))
            if overflow { return conclude(ended: true) }
            position = jumped
        } else if configuration.requestGrowth > 0 && (sizeKnownAtRequest == nil || !configuration.scanOptions.animation) {
            // Reading on where the last request ended: the header, or the metadata the scan
            // goes on for, is longer than it looked, so grow the requests, to bound the round
            // trips. Not in animation mode once the size is known: growth would read the frames
            // through, and that walk is bounded by request count instead.
            // Exact without a 128-bit product: the growth is above 0 here.
            let growth = configuration.requestGrowth
            floor = max(floor, rangeLength > UInt64.max / growth ? UInt64.max >> 1 : rangeLength &* growth)
        }
        // Asked after the jump: `needMore` counts the skip and is capped by `maxBytes`.
        guard !scanEnded else { return conclude(ended: false) }
        want = max(UInt64(scanner.neededCount), floor)
        phase = .idle
    }

    // MARK: - Settling

    /// Why an answer is partial (§1.6): the limit that ended the metadata search.
    static let metadataLimit = ScanFailure(.limitExceeded, .metadataRequestLimit)
    static let transferLimit = ScanFailure(.limitExceeded, .metadataTransferLimit)
    static let timeLimit = ScanFailure(.limitExceeded, .metadataTimeLimit)

    /// Settles with the answer the input ending here would give, marked partial with
    /// `reason`; false (nothing settled) while the size is unknown.
    mutating func settlePartial(_ reason: ScanFailure) -> Bool {
        guard scanning, case .needMore = scanner.status else { return false }
        var copy = scanner
        guard case .done(var info) = copy.finish() else { return false }
        info.partialReason = reason
        settle(.done(info))
        return true
    }

    /// Whether `settlePartial` would settle: the input ending here gives an answer.
    /// Mutating only so the scanner is not copied for the call; it is not changed.
    mutating func hasPartialAnswer() -> Bool {
        guard scanning, case .needMore = scanner.status else { return false }
        var copy = scanner
        guard case .done = copy.finish() else { return false }
        return true
    }

    /// The answer: the scanner's terminal status, or what `finish()` makes of the input ending
    /// here.
    mutating func conclude(ended: Bool) {
        // In place: the scanner is large.
        if !scanning {
            scanner = HeaderScanner(options: Self.scanOptions(configuration))
            scanning = true
        }
        if ended && !scanEnded { _ = scanner.finish() }
        switch scanner.status {
        case .done(let info):
            settle(.done(info))
        case .unsupported(let failure) where failure.code == .limitExceeded:
            // The scanner's read limit and the transfer limit are one failure to the caller.
            settle(.failed(Failure(.limitExceeded, scanFailure: failure)))
        case .unsupported(let failure):
            settle(.failed(Failure(.scan, scanFailure: failure)))
        case .refused(let info, let failure):
            var refusal = Failure(.scan, scanFailure: failure)
            refusal.refusedImage = info
            settle(.failed(refusal))
        case .needMore:
            settle(.failed(Failure(.scan, .responseEndedBeforeHeader,
                                   scanFailure: ScanFailure(.truncated, .inputEndedInsideTheHeader))))
        }
    }

    /// Ends the probe: every later `next()` gives `action`.
    mutating func settle(_ action: Action) {
        settled = action
        phase = .finished
    }
}
