// The response head, handed over as lines (`headLine`, for libcurl and `wire`) or as parsed
// fields (`field`, `head`): the head's limits, the interim responses, and what the status and
// fields decide. Refusing a response doesn't end the probe here: `end` does, once the driver
// has stopped reading it. The first 206 names the version (its validators), and later ranges
// must be of it.
extension RangePlanner {
    /// One line of the response head, its line ending included, as an HTTP stack hands lines
    /// over (libcurl's header callback): the status line, each field line, the blank line.
    /// Returns whether to go on: false when the head broke HTTP (the planner has failed) or the
    /// planner doesn't want the body (the driver stops and calls `end(.stopped)`). Lines after
    /// the head (trailers) are ignored.
    public mutating func headLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard phase == .awaitingHead else { return phase != .finished }
        headBytes &+= bytes.count
        if headBytes > Limits.headBytes { failInvalid(.headTooLong); return false }
        if bytes.count > Limits.lineBytes { failInvalid(.headLineTooLong); return false }
        var end = bytes.count
        if end > 0 && bytes[end &- 1] == 0x0A { end &-= 1 }
        if end > 0 && bytes[end &- 1] == 0x0D { end &-= 1 }
        let text = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if headStatus == 0 {
            guard let code = Self.statusCode(text) else { failInvalid(.notAStatusLine); return false }
            headStatus = code
            return true
        }
        if text.count > 0 {
            // A field name is a token: no spaces ("Name :", refused by RFC 9112 §5.1), and a
            // line starting with whitespace is obsolete folding, refused too.
            var colon = 0
            while colon < text.count && text[colon] != 0x3A { colon &+= 1 }
            guard colon > 0, colon < text.count else { failInvalid(.malformedField); return false }
            var index = 0
            while index < colon {
                let byte = text[index]
                guard byte > 0x20 && byte < 0x7F else { failInvalid(.malformedField); return false }
                index &+= 1
            }
            takeField(name: UnsafeRawBufferPointer(rebasing: text[0..<colon]),
                      value: ResponseFields.trimmed(UnsafeRawBufferPointer(rebasing: text[(colon &+ 1)...])))
            return phase != .finished
        }
        let code = headStatus
        headStatus = 0
        return head(status: code)
    }

    /// `HTTP/1.1 206 Partial Content`, `HTTP/2 200`: the status code, 100 to 999.
    static func statusCode(_ line: UnsafeRawBufferPointer) -> Int? {
        guard line.count >= 5, ResponseFields.equals(UnsafeRawBufferPointer(rebasing: line[0..<5]), "http/") else { return nil }
        var index = 5
        while index < line.count && ((line[index] >= 0x30 && line[index] <= 0x39) || line[index] == 0x2E) { index &+= 1 }
        // The version's digits and dots, a space, three digits, then a space or the end.
        guard index > 5, index &+ 4 <= line.count, line[index] == 0x20, index &+ 4 == line.count || line[index &+ 4] == 0x20,
              line[index &+ 1] != 0x20, let code = ResponseFields.decimal(line, from: index &+ 1, to: index &+ 4), code >= 100
        else { return nil }
        return Int(truncatingIfNeeded: code)  // three digits
    }

    /// One header field of the response in flight, parsed by the driver's HTTP stack (name in
    /// any case, value trimmed here). Counted against the head's limits.
    public mutating func field(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard phase == .awaitingHead else { return }
        headBytes &+= name.count &+ value.count &+ 4
        if headBytes > Limits.headBytes { return failInvalid(.headTooLong) }
        if name.count &+ value.count &+ 4 > Limits.lineBytes { return failInvalid(.headLineTooLong) }
        takeField(name: name, value: ResponseFields.trimmed(value))
    }

    /// A field, checked and counted: kept in `fields`, with the text the planner sends back or
    /// resolves.
    mutating func takeField(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        fields.take(name: name, value: value)
        if ResponseFields.equals(name, "location") {
            location.removeAll()
            locationTooLong = !location.append(value)
        } else if ResponseFields.equals(name, "etag") {
            entityTagText.removeAll()
            if !entityTagText.append(value) { entityTagText.removeAll() }
        } else if ResponseFields.equals(name, "last-modified") {
            lastModifiedText.removeAll()
            if !lastModifiedText.append(value) { lastModifiedText.removeAll() }
        }
    }

    /// The response head is complete (its fields given with `field` or `headLine`). Returns
    /// whether to read the body; when not, the driver stops the transfer (or reads it through
    /// for the connection's sake) and calls `end(.stopped)`. An interim (1xx) head returns
    /// true: the real head follows.
    public mutating func head(status: Int) -> Bool {
        guard phase == .awaitingHead else { return false }
        if status < 200 {
            if status == 101 { failInvalid(.switchedProtocols); return false }
            interimResponses &+= 1
            if interimResponses > Limits.interimResponses { failInvalid(.tooManyInterimResponses); return false }
            fields = ResponseFields()
            location.removeAll()
            locationTooLong = false
            entityTagText.removeAll()
            lastModifiedText.removeAll()
            headStatus = 0
            return true
        }
        self.status = status
        phase = .bodyIgnored
        if fields.isMalformed {
            refuse(.invalidResponse, .invalidContentLength, status: status)
            return false
        }
        if fields.hasOtherTransferCoding {
            refuse(.invalidResponse, .unsupportedTransferCoding, status: status)
            return false
        }
        switch status {
        case 200, 206: break
        case 304 where isConditional:
            // The version the caller holds (RFC 9110 §15.4.5): its answer stands. A 304 that
            // doesn't restate a validator leaves the caller's.
            keepValidators()
            if fields.entityTag == nil { resourceEntityTag.set(heldEntityTag) }
            if fields.lastModified == nil { resourceLastModified.set(heldLastModified) }
            return false
        case 301, 302, 303, 307, 308:
            if !fields.hasLocation || location.isEmpty { refuse(.invalidResponse, .redirectWithoutLocation, status: status) }
            return false
        default:
            return false
        }
        if fields.isContentEncoded {
            refuse(.contentEncoded, .contentEncoded, status: status)
            return false
        }
        if status == 200 {
            // The whole resource from byte 0: Range ignored, or If-Range found it changed.
            // What was scanned so far may be another version: scan afresh.
            startScan(length: fields.contentLength)
            keepValidators()
            left = nil
            phase = .readingBody
            return true
        }
        // 206: another version's bytes are never combined with the first's (§6.1).
        if position > 0 || scanning {
            let changedTag = firstEntityTag != nil && fields.entityTag != nil && fields.entityTag != firstEntityTag
            let changedDate = firstLastModified != nil && fields.lastModified != nil && fields.lastModified != firstLastModified
            if changedTag || changedDate {
                refuse(.resourceChanged, .resourceChanged, status: 206)
                return false
            }
        }
        guard let range = fields.contentRange else {
            refuse(.badContentRange, .noContentRange, status: 206)
            return false
        }
        guard range.first == asked.first, range.last <= asked.last else {
            refuse(.badContentRange, .contentRangeMismatch, status: 206)
            return false
        }
        if let total = totalLength, let now = range.total, now != total {
            refuse(.badContentRange, .lengthChanged, status: 206)
            return false
        }
        rangeLength = range.last &- range.first &+ 1
        if let length = fields.contentLength, length != rangeLength {
            refuse(.badContentRange, .contentLengthDisagrees, status: 206)
            return false
        }
        if totalLength == nil { totalLength = range.total }
        if position == 0 && !scanning {
            // The resource's first 206: its validators name the version later ranges must be.
            firstEntityTag = fields.entityTag
            firstLastModified = fields.lastModified
            keepValidators()
            ifRange = nil
            validator.removeAll()
            if fields.entityTag != nil && fields.entityTagIsStrong && Self.sendable(entityTagText) {
                ifRange = .entityTag
                validator.set(entityTagText)
            } else if fields.lastModified != nil && Self.sendable(lastModifiedText) {
                ifRange = .lastModified
                validator.set(lastModifiedText)
            }
        }
        left = rangeLength
        if !scanning { startScan(length: range.total) }
        phase = .readingBody
        return true
    }

    /// Whether a validator can go back in a header: not empty, no control characters (a
    /// server can't use its own ETag to inject headers into later requests).
    static func sendable(_ text: ValidatorText) -> Bool {
        !text.isEmpty && text.withBytes { bytes in !bytes.contains { $0 < 0x20 || $0 == 0x7F } }
    }
}
