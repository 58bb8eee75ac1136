import ImageProbe

/// The columns of `--csv`, in order; the header line names them. `pathBytes` is set only for a
/// name that isn't UTF-8: `path` then shows U+FFFD for the bytes that aren't.
let csvColumns = [
    "path", "format", "mime", "width", "height", "displayWidth", "displayHeight", "orientation",
    "bitDepth", "alpha", "animated", "frameCount", "bytesRead", "error", "message", "pathBytes",
    "hdr", "gainMap", "cicp", "iccProfile", "dpiX", "dpiY", "interlaced", "motionPhoto",
]

/// One CSV record for `result` (RFC 4180, decided on bytes: fields with a comma, quote, CR or
/// LF are quoted, quotes doubled). Empty fields are unknown.
func csvLine(_ result: InputResult) -> String {
    var values = [String](repeating: "", count: csvColumns.count)
    values[0] = result.path.text
    values[12] = "\(result.network?.bytesTransferred ?? Int(result.bytesRead))"
    if let (code, message) = result.failure {
        values[13] = code
        values[14] = message
    } else if case .done(let info) = result.status {
        values[1] = info.format.name
        values[2] = info.mimeType
        values[3] = "\(info.width)"
        values[4] = "\(info.height)"
        values[5] = "\(info.displayWidth)"
        values[6] = "\(info.displayHeight)"
        values[7] = info.orientation.map { "\($0.rawValue)" } ?? ""
        values[8] = info.bitDepth.map { "\($0)" } ?? ""
        values[9] = info.hasAlpha.map { "\($0)" } ?? ""
        values[10] = info.isAnimated.map { "\($0)" } ?? ""
        values[11] = info.frameCount.map { "\($0)" } ?? ""
        values[16] = info.isHDR.map { "\($0)" } ?? ""
        values[17] = info.hasGainMap.map { "\($0)" } ?? ""
        // The four code points as one field: primaries/transfer/matrix/full range.
        values[18] = info.cicp.map {
            "\($0.colourPrimaries)/\($0.transferCharacteristics)/\($0.matrixCoefficients)/\($0.isFullRange ? 1 : 0)"
        } ?? ""
        values[19] = info.hasICCProfile.map { "\($0)" } ?? ""
        values[20] = info.dpi.map { "\($0.x)" } ?? ""
        values[21] = info.dpi.map { "\($0.y)" } ?? ""
        values[22] = info.isInterlaced.map { "\($0)" } ?? ""
        values[23] = info.isMotionPhoto.map { "\($0)" } ?? ""
    }
    if !result.path.isUTF8 { values[15] = result.path.percentEncoded }
    return values.map(csvField).joined(separator: ",")
}

/// A CSV field, quoted when its bytes hold a comma, a quote, CR or LF. Bytes, not
/// `Character`s: a comma followed by a combining mark is one `Character` that isn't a comma,
/// and CR LF one that is neither CR nor LF.
func csvField(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
    var out: [UInt8] = [0x22]
    for byte in bytes {
        out.append(byte)
        if byte == 0x22 { out.append(0x22) }
    }
    out.append(0x22)
    return String(decoding: out, as: UTF8.self)
}

/// `--format`'s output for an image; nil for anything else.
func templateText(_ result: InputResult, _ template: OutputTemplate, rawNames: Bool = false) -> String? {
    guard result.failure == nil, case .done(let info) = result.status else { return nil }
    var out = ""
    for piece in template.pieces {
        switch piece {
        case .literal(let text): out += text
        case .path: out += rawNames ? result.path.text : result.path.escaped
        case .rawPath: out += result.path.text
        case .format: out += info.format.name
        case .width: out += "\(info.width)"
        case .height: out += "\(info.height)"
        case .displayWidth: out += "\(info.displayWidth)"
        case .displayHeight: out += "\(info.displayHeight)"
        // No orientation recorded means none to apply: EXIF's default, 1.
        case .orientation: out += "\(info.orientation?.rawValue ?? 1)"
        case .mimeType: out += info.mimeType
        case .bytesRead: out += "\(result.network?.bytesTransferred ?? Int(result.bytesRead))"
        case .named(let name): out += namedField(info, name)
        }
    }
    return out
}

/// `%{name}`'s text: the field as JSON shows it, without quotes; empty when unknown.
func namedField(_ info: ImageInfo, _ name: String) -> String {
    func text<Value>(_ value: Value?) -> String { value.map { "\($0)" } ?? "" }
    switch name {
    case "format": return info.format.name
    case "mime": return info.mimeType
    case "width": return "\(info.width)"
    case "height": return "\(info.height)"
    case "orientation": return text(info.orientation?.rawValue)
    case "displayWidth": return "\(info.displayWidth)"
    case "displayHeight": return "\(info.displayHeight)"
    case "bitDepth": return text(info.bitDepth)
    case "alpha": return text(info.hasAlpha)
    case "progressive": return text(info.isProgressive)
    case "animated": return text(info.isAnimated)
    case "frameCount": return text(info.frameCount)
    case "loopCount": return text(info.loopCount)
    case "hdr": return text(info.isHDR)
    case "gainMap": return text(info.hasGainMap)
    case "cicp":
        return info.cicp.map {
            "\($0.colourPrimaries),\($0.transferCharacteristics),\($0.matrixCoefficients),\($0.isFullRange)"
        } ?? ""
    case "iccProfile": return text(info.hasICCProfile)
    case "dpi": return info.dpi.map { "\($0.x)x\($0.y)" } ?? ""
    case "interlaced": return text(info.isInterlaced)
    case "motionPhoto": return text(info.isMotionPhoto)
    default: return ""
    }
}

/// The JSON object of SPEC.md §4, plus extra fields readers may ignore.
func jsonLine(_ result: InputResult) -> String {
    var fields: [(String, String)] = [("path", jsonString(result.path.text))]
    // A name that isn't UTF-8: `path` shows U+FFFD in place of its invalid bytes, and this
    // gives every byte back (SPEC.md §4).
    if !result.path.isUTF8 { fields.append(("pathBytes", jsonString(result.path.percentEncoded))) }
    if let fetchError = result.fetchError {
        fields += [("error", jsonString(fetchError.code)), ("message", jsonString(fetchError.message))]
        if let status = fetchError.status { fields.append(("status", "\(status)")) }
    } else if let ioError = result.ioError {
        fields += [("error", jsonString("io")), ("message", jsonString(ioError))]
    } else {
        switch result.status {
        case .done(let info):
            fields += [
                ("format", jsonString(info.format.name.description)),
                ("mime", jsonString(info.mimeType.description)),
                ("width", "\(info.width)"),
                ("height", "\(info.height)"),
                ("orientation", info.orientation.map { "\($0.rawValue)" } ?? "null"),
                ("displayWidth", "\(info.displayWidth)"),
                ("displayHeight", "\(info.displayHeight)"),
            ]
            if let bitDepth = info.bitDepth { fields.append(("bitDepth", "\(bitDepth)")) }
            if let hasAlpha = info.hasAlpha { fields.append(("alpha", "\(hasAlpha)")) }
            if let progressive = info.isProgressive { fields.append(("progressive", "\(progressive)")) }
            // Full and animation modes settle `animated` where the format can: always shown
            // there, null when unknown (a GIF in full mode without a loop extension).
            if let animated = info.isAnimated {
                fields.append(("animated", "\(animated)"))
            } else if result.mode != .dimensionsOnly {
                fields.append(("animated", "null"))
            }
            if let frameCount = info.frameCount { fields.append(("frameCount", "\(frameCount)")) }
            if let loopCount = info.loopCount { fields.append(("loopCount", "\(loopCount)")) }
            if let duration = info.duration { fields.append(("duration", jsonNumber(duration))) }
            if let playback = info.playbackDuration { fields.append(("playbackDuration", jsonNumber(playback))) }
            if let frame = info.largestFrame {
                fields.append(("largestFrame", "{\"x\":\(frame.x),\"y\":\(frame.y),\"width\":\(frame.width),\"height\":\(frame.height)}"))
            }
            if result.mode == .animation && info.duration != nil {
                fields.append(("firstDelays", "[" + result.firstDelays.map(jsonNumber).joined(separator: ",") + "]"))
            }
            if result.mode != .dimensionsOnly { fields += extraFactFields(info) }
            if let preview = info.epsPreview { fields.append(("preview", jsonString(preview.name.description))) }
            if let reason = info.partialReason {
                fields.append(("partial", "true"))
                fields.append(("partialReason", jsonString(reason.code.name.description)))
            }
        case .unsupported(let failure):
            fields += [("error", jsonString(failure.code.name.description)), ("message", jsonString(failure.message.description))]
            if let format = failure.format { fields.append(("detectedFormat", jsonString(format.name.description))) }
        case .refused(let info, let failure):
            // A limit refused the image: the error, with what was refused.
            fields += [
                ("error", jsonString(failure.code.name.description)), ("message", jsonString(failure.message.description)),
                ("detectedFormat", jsonString(info.format.name.description)), ("width", "\(info.width)"),
                ("height", "\(info.height)"),
            ]
            if let frameCount = info.frameCount { fields.append(("frameCount", "\(frameCount)")) }
        case .needMore:
            fields += [("error", jsonString("truncated")), ("message", jsonString("input ended inside the header"))]
        }
    }
    if let network = result.network {
        fields.append(("bytesTransferred", "\(network.bytesTransferred)"))
        fields.append(("requests", "\(network.requests)"))
    } else {
        fields.append(("bytesRead", "\(result.bytesRead)"))
        if result.bytesSkipped > 0 { fields.append(("bytesSkipped", "\(result.bytesSkipped)")) }
    }
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
}

/// Full mode's extra facts as JSON fields (SPEC.md §2, §4): each present, `null` when the file
/// can't tell.
func extraFactFields(_ info: ImageInfo) -> [(String, String)] {
    func flag(_ value: Bool?) -> String { value.map { "\($0)" } ?? "null" }
    let cicp = info.cicp.map {
        "[\($0.colourPrimaries),\($0.transferCharacteristics),\($0.matrixCoefficients),\($0.isFullRange)]"
    }
    return [
        ("hdr", flag(info.isHDR)),
        ("gainMap", flag(info.hasGainMap)),
        ("cicp", cicp ?? "null"),
        ("iccProfile", flag(info.hasICCProfile)),
        ("dpi", info.dpi.map { "[\($0.x),\($0.y)]" } ?? "null"),
        ("interlaced", flag(info.isInterlaced)),
        ("motionPhoto", flag(info.isMotionPhoto)),
    ]
}

func humanLine(_ result: InputResult, rawNames: Bool = false) -> String {
    let path = rawNames ? result.path.text : result.path.escaped
    if let ioError = result.ioError { return "\(path): error: \(ioError)" }
    if let fetchError = result.fetchError {
        return "\(path): error: \(fetchError.code)\(fetchError.status.map { " \($0)" } ?? ""): \(printable(fetchError.message))"
    }
    var counts = "\(result.bytesRead) bytes read"
    if result.bytesSkipped > 0 { counts += ", \(result.bytesSkipped) skipped" }
    if let network = result.network {
        counts = "\(network.bytesTransferred) bytes transferred in \(network.requests) request\(network.requests == 1 ? "" : "s")"
    }
    switch result.status {
    case .done(let info):
        var text = "\(path): \(info)"
        if info.orientation?.swapsWidthAndHeight == true { text += " (displayed \(info.displayWidth)x\(info.displayHeight))" }
        return text + " [\(counts)]"
    case .unsupported(let failure):
        // Nothing to read at all is "truncated" to the scanner; say what it is.
        if failure.code == .truncated && result.network == nil && result.bytesRead == 0 && result.bytesSkipped == 0 {
            return "\(path): error: truncated: the input is empty [\(counts)]"
        }
        return "\(path): error: \(failure) [\(counts)]"
    case .refused(let info, let failure):
        return "\(path): error: \(failure): \(info.format.name) \(info.width)x\(info.height) [\(counts)]"
    case .needMore:
        return "\(path): error: truncated [\(counts)]"
    }
}

/// A number as JSON: whole numbers without a fraction, others to the microsecond.
func jsonNumber(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded() && abs(value) < 1e15 { return "\(Int(value))" }
    var text = "\((value * 1000).rounded() / 1000)"
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// `text` with control characters escaped (`InputName.escaped`), so one input stays on one line
/// and nothing reaches the terminal as a command.
func printable(_ text: String) -> String { InputName.escape(Array(text.utf8)) }

/// A JSON string literal: quotes, backslashes and control characters escaped.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
            || scalar.value == 0x2028 || scalar.value == 0x2029:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
