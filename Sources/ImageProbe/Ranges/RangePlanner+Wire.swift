/// The response's bytes as they come off the socket, for drivers that speak HTTP/1.1
/// themselves (Python, JavaScript in Node, the C test driver): the head's lines, checked, and
/// the body's framing (Content-Length, chunked, or to the connection's end), every byte counted.
/// Drivers whose HTTP stack parses the head (libcurl) hand its lines to `headLine(_:)`, which
/// applies the same checks.
enum WireState: UInt8, Sendable {
    /// Head lines, into `line`.
    case head
    /// A body of `wireLeft` bytes.
    case lengthBody
    /// A chunk size's hexadecimal digits.
    case chunkSize
    /// Spaces after the size, then a chunk extension, up to the line's end (skipped, counted).
    case chunkExtension
    /// The line feed ending a chunk-size line.
    case chunkSizeLineFeed
    /// `wireLeft` bytes of chunk data.
    case chunkData
    /// The CR LF after chunk data.
    case chunkDataEnd
    case chunkDataLineFeed
    /// Trailer lines after the last chunk, to the blank line (skipped, counted).
    case trailerLineStart
    case trailerLine
    /// The body runs to the connection's end.
    case untilClose
    /// The response is over (or the planner stopped reading it).
    case ended
}

extension RangePlanner {
    /// What `wire(_:)` made of the bytes.
    public enum WireProgress: Sendable, Equatable {
        /// Read on, and hand over the next bytes.
        case readMore
        /// The exchange is over: call `next()`. `reusable`: the response ended exactly, and the
        /// connection may carry the next request.
        case exchangeEnded(reusable: Bool)
    }

    /// Bytes of the response as they came off the connection, in order, every one counted.
    /// Drives the whole exchange: the head (`headLine`), the body's framing, the body
    /// (`body`), and its end (`end`). Bytes are taken in order up to the byte budget and no
    /// further, so where the bytes are split changes nothing.
    public mutating func wire(_ bytes: UnsafeRawBufferPointer) -> WireProgress {
        if discardLeft > 0 { return discard(bytes, from: 0) }
        guard phase == .awaitingHead || phase == .readingBody || phase == .bodyIgnored, wire != .ended else {
            _ = received(UInt64(bytes.count))
            return .exchangeEnded(reusable: false)
        }
        var index = 0
        while index < bytes.count {
            let room = configuration.maxBytes > bytesReceived ? configuration.maxBytes &- bytesReceived : 0
            if room == 0 {
                _ = received(UInt64(bytes.count &- index))
                wire = .ended
                fail(.limitExceeded)
                return .exchangeEnded(reusable: false)
            }
            let limit = index &+ Int(truncatingIfNeeded: min(UInt64(bytes.count &- index), room))  // at most bytes.count
            let (next, progress) = step(bytes, from: index, to: limit)
            _ = received(UInt64(next &- index))
            index = next
            if let progress {
                // The rest of a short response the planner stopped reading is read through
                // for the connection's sake (`drainable`); anything else after the response's
                // end came off the wire too, and the connection can't be trusted after it.
                if discardLeft > 0 {
                    let drained = discard(bytes, from: index)
                    return drained == .readMore ? .exchangeEnded(reusable: false) : drained
                }
                _ = received(UInt64(bytes.count &- index))
                if case .exchangeEnded(true) = progress, index < bytes.count { return .exchangeEnded(reusable: false) }
                return progress
            }
        }
        return .readMore
    }

    /// Takes `bytes[index..<limit]` as far as the state allows: returns where it stopped, and
    /// the exchange's end when it ended.
    private mutating func step(_ bytes: UnsafeRawBufferPointer, from start: Int, to limit: Int) -> (Int, WireProgress?) {
        var index = start
        switch wire {
        case .head:
            // Up to and including the next line feed.
            var stop = index
            while stop < limit && bytes[stop] != 0x0A { stop &+= 1 }
            let found = stop < limit
            if found { stop &+= 1 }
            guard line.append(UnsafeRawBufferPointer(rebasing: bytes[index..<stop])) else {
                failInvalid(.headLineTooLong)
                return (stop, .exchangeEnded(reusable: false))
            }
            index = stop
            guard found else { return (index, nil) }
            // A status line must start the response: HTTP/0.9 has none.
            let wanted = line.withBytes { headLine($0) }
            line.removeAll()
            if phase == .finished { return (index, .exchangeEnded(reusable: false)) }
            if phase == .awaitingHead { return (index, nil) }  // more head lines, or an interim head ended
            if fields.closesConnection { keepAlive = false }
            if !wanted {
                // Nothing of the body is wanted: reusable when there is none, or little.
                let empty = fields.contentLength == 0 || status == 204 || status == 304
                wire = .ended
                if !empty, !fields.isChunked, keepAlive, let length = fields.contentLength, length <= Limits.drainBytes {
                    discardLeft = length
                }
                end(.stopped)
                return (index, .exchangeEnded(reusable: empty && keepAlive && !fields.isChunked))
            }
            if status == 204 || status == 304 {
                wire = .ended
                end(.complete)
                return (index, .exchangeEnded(reusable: keepAlive))
            }
            if fields.isChunked {
                wire = .chunkSize
                wireDigits = 0
                wireLeft = 0
            } else if let length = fields.contentLength {
                wireLeft = length
                wire = .lengthBody
                if length == 0 {
                    wire = .ended
                    end(.complete)
                    return (index, .exchangeEnded(reusable: keepAlive))
                }
            } else {
                wire = .untilClose
                keepAlive = false
            }
        case .lengthBody, .chunkData, .untilClose:
            var run = limit &- index
            // wireLeft is below run here, so it fits.
            if wire != .untilClose && UInt64(run) > wireLeft { run = Int(truncatingIfNeeded: wireLeft) }
            let wanted = body(UnsafeRawBufferPointer(rebasing: bytes[index..<(index &+ run)]))
            index &+= run
            if wire != .untilClose { wireLeft &-= UInt64(run) }
            if !wanted {
                if wire == .lengthBody && keepAlive && wireLeft > 0 && wireLeft <= Limits.drainBytes { discardLeft = wireLeft }
                wire = .ended
                end(.stopped)
                return (index, .exchangeEnded(reusable: keepAlive && wireLeft == 0 && fields.contentLength != nil))
            }
            if wire == .lengthBody && wireLeft == 0 {
                wire = .ended
                end(.complete)
                return (index, .exchangeEnded(reusable: keepAlive))
            }
            if wire == .chunkData && wireLeft == 0 { wire = .chunkDataEnd }
        case .chunkSize:
            let byte = bytes[index]
            index &+= 1
            if let digit = AddressText.hexValue(byte) {
                // At most 16 digits (leading zeros count, as libcurl counts them), and a size
                // that fits a signed 64-bit length: more is a lie.
                guard wireDigits < 16 else { return (index, invalidFraming()) }
                wireLeft = wireLeft << 4 | UInt64(digit)
                guard wireLeft <= UInt64(Int64.max) else { return (index, invalidFraming()) }
                wireDigits &+= 1
                return (index, nil)
            }
            guard wireDigits > 0 else { return (index, invalidFraming()) }  // "-1", "", "x"
            if byte == 0x0D {
                wire = .chunkSizeLineFeed
            } else if byte == 0x0A {
                chunkSizeEnded()
            } else if byte == 0x3B || byte == 0x20 || byte == 0x09 {
                wire = .chunkExtension
            } else {
                return (index, invalidFraming())
            }
        case .chunkExtension:
            // Skipped, however long: the byte budget bounds it.
            while index < limit && bytes[index] != 0x0A { index &+= 1 }
            if index < limit {
                index &+= 1
                chunkSizeEnded()
            }
        case .chunkSizeLineFeed:
            guard bytes[index] == 0x0A else { return (index &+ 1, invalidFraming()) }
            index &+= 1
            chunkSizeEnded()
        case .chunkDataEnd, .chunkDataLineFeed:
            let byte = bytes[index]
            index &+= 1
            if byte == 0x0D && wire == .chunkDataEnd {
                wire = .chunkDataLineFeed
            } else if byte == 0x0A {
                wire = .chunkSize
                wireDigits = 0
                wireLeft = 0
            } else {
                return (index, invalidFraming())
            }
        case .trailerLineStart:
            let byte = bytes[index]
            index &+= 1
            if byte == 0x0A {
                wire = .ended
                end(.complete)
                return (index, .exchangeEnded(reusable: keepAlive))
            }
            if byte != 0x0D { wire = .trailerLine }
        case .trailerLine:
            while index < limit && bytes[index] != 0x0A { index &+= 1 }
            if index < limit {
                index &+= 1
                wire = .trailerLineStart
            }
        case .ended:
            return (index, .exchangeEnded(reusable: false))
        }
        return (index, nil)
    }

    /// Reads through the rest of a response the planner stopped reading: `.exchangeEnded`
    /// with `reusable` once it all came (nothing after it), `.readMore` before.
    private mutating func discard(_ bytes: UnsafeRawBufferPointer, from start: Int) -> WireProgress {
        let count = UInt64(bytes.count &- start)
        _ = received(count)
        if count < discardLeft {
            discardLeft &-= count
            return .readMore
        }
        let exact = count == discardLeft
        discardLeft = 0
        return .exchangeEnded(reusable: exact)
    }

    /// A chunk-size line ended: data follows, or the last chunk's trailers.
    private mutating func chunkSizeEnded() {
        wire = wireLeft == 0 ? .trailerLineStart : .chunkData
    }

    private mutating func invalidFraming() -> WireProgress {
        wire = .ended
        fail(.invalidResponse)
        return .exchangeEnded(reusable: false)
    }

    /// The connection ended (the peer closed it): the body ran to its end when its length was
    /// the connection's, else the response was cut short (or never came).
    public mutating func wireClosed() {
        switch wire {
        case .untilClose:
            wire = .ended
            end(.complete)
        case .head:
            wire = .ended
            fail(.connection)
        case .lengthBody, .chunkSize, .chunkExtension, .chunkSizeLineFeed, .chunkData, .chunkDataEnd, .chunkDataLineFeed,
             .trailerLineStart, .trailerLine:
            wire = .ended
            end(.closed)
        case .ended:
            break
        }
    }
}
