import ImageProbe

// Byte builders for animations: GIF, APNG, animated WebP and ISOBMFF image sequences. Each
// takes the frames as the format stores them and can say which frame events and totals a
// scan should report, so tests derive their expectations from the parameters.

/// One frame as a builder writes it: a delay of `numerator / denominator` seconds (as the
/// format stores it) and the frame's rectangle on the canvas.
public struct BuiltFrame: Sendable {
    public var numerator: Int
    public var denominator: Int
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(numerator: Int, denominator: Int, x: Int = 0, y: Int = 0, width: Int, height: Int) {
        self.numerator = numerator
        self.denominator = denominator
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The delay in milliseconds, as `FrameInfo.delay` reports it.
    public var milliseconds: Double { Double(numerator) * 1000 / Double(denominator) }

    /// The frame event a scan should report for this frame at `index`.
    public func event(_ index: Int) -> FrameInfo {
        FrameInfo(index: index, delay: milliseconds, rectangle: FrameRect(x: x, y: y, width: width, height: height))
    }
}

extension Array where Element == BuiltFrame {
    /// The frame events, in order.
    public var events: [FrameInfo] { enumerated().map { $0.element.event($0.offset) } }
    /// Σ delays, milliseconds.
    public var duration: Double { reduce(0) { $0 + $1.milliseconds } }
    /// Σ delays with each under 11 ms counted as 100 ms.
    public var playbackDuration: Double { reduce(0) { $0 + ($1.milliseconds < 11 ? 100 : $1.milliseconds) } }
    /// The first largest rectangle by area.
    public var largest: FrameRect? {
        var best: BuiltFrame? = nil
        for frame in self where best.map({ frame.width * frame.height > $0.width * $0.height }) ?? true { best = frame }
        return best.map { FrameRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    }
}

/// GIF89a files built block by block.
public enum AnimatedGIFBuilder {
    public enum Block: Sendable {
        /// An application extension with a loop sub-block: NETSCAPE2.0 or ANIMEXTS1.0.
        case loop(Int, application: String = "NETSCAPE2.0")
        /// An image: a Graphic Control Extension first when `centiseconds` is given, then the
        /// descriptor, a local colour table when `localTableBits` is given, and LZW data in
        /// sub-blocks of the given sizes.
        case image(centiseconds: Int?, x: Int, y: Int, width: Int, height: Int, localTableBits: Int? = nil, dataBlocks: [Int] = [3])
        /// A Graphic Control Extension with no image after it.
        case controlOnly(centiseconds: Int)
        /// A comment extension in sub-blocks of the given sizes.
        case comment([Int])
        /// An application extension the scanner doesn't know.
        case application(String, [Int])
    }

    /// Header, logical screen descriptor with a 2-entry global colour table, `blocks`, and
    /// the trailer unless `trailer` is false.
    public static func file(width: Int, height: Int, blocks: [Block], trailer: Bool = true) -> [UInt8] {
        var bytes = ascii("GIF89a")
        bytes.append16(width, .littleEndian)
        bytes.append16(height, .littleEndian)
        bytes += [0x80, 0, 0]
        bytes.appendFiller(6)
        for block in blocks { bytes += Self.bytes(block) }
        if trailer { bytes.append(0x3B) }
        return bytes
    }

    static func subBlocks(_ sizes: [Int]) -> [UInt8] {
        var bytes: [UInt8] = []
        for size in sizes where size > 0 {
            bytes.append(UInt8(size))
            bytes.appendFiller(size, seed: UInt8(truncatingIfNeeded: size))
        }
        return bytes + [0]
    }

    static func control(_ centiseconds: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x21, 0xF9, 4, 0]
        bytes.append16(centiseconds, .littleEndian)
        return bytes + [0, 0]
    }

    static func bytes(_ block: Block) -> [UInt8] {
        switch block {
        case .loop(let count, let application):
            var bytes: [UInt8] = [0x21, 0xFF, 11] + ascii(application) + [3, 1]
            bytes.append16(count, .littleEndian)
            return bytes + [0]
        case .image(let centiseconds, let x, let y, let width, let height, let localTableBits, let dataBlocks):
            var bytes = centiseconds.map(control) ?? []
            bytes.append(0x2C)
            bytes.append16(x, .littleEndian)
            bytes.append16(y, .littleEndian)
            bytes.append16(width, .littleEndian)
            bytes.append16(height, .littleEndian)
            bytes.append(localTableBits.map { 0x80 | UInt8($0 - 1) } ?? 0)
            if let bits = localTableBits { bytes.appendFiller(3 << bits) }
            return bytes + [2] + subBlocks(dataBlocks)
        case .controlOnly(let centiseconds):
            return control(centiseconds)
        case .comment(let sizes):
            return [0x21, 0xFE] + subBlocks(sizes)
        case .application(let name, let sizes):
            return [0x21, 0xFF, 11] + ascii(name) + subBlocks(sizes)
        }
    }

    /// The frames `blocks` hold: one per image, with the delay of the control extension
    /// just before it (0 without one).
    public static func frames(_ blocks: [Block]) -> [BuiltFrame] {
        blocks.compactMap { block in
            guard case .image(let centiseconds, let x, let y, let width, let height, _, _) = block else { return nil }
            return BuiltFrame(numerator: centiseconds ?? 0, denominator: 100, x: x, y: y, width: width, height: height)
        }
    }
}

/// APNG files: acTL, then fcTL before each frame's data, with sequence numbers in order.
public enum APNGBuilder {
    /// `delayDenominator` 0 means 100, as the APNG specification says; the frame written is
    /// `frame` with its denominator as stored.
    public static func file(
        width: Int, height: Int, frames: [BuiltFrame], plays: Int, defaultImageIsFirstFrame: Bool = true,
        extraBeforeData: [UInt8] = []
    ) -> [UInt8] {
        var bytes = PNGBuilder.signature + PNGBuilder.header(width: width, height: height)
        var control: [UInt8] = []
        control.append32(frames.count, .bigEndian)
        control.append32(plays, .bigEndian)
        bytes += PNGBuilder.chunk("acTL", control) + extraBeforeData
        var sequence = 0
        func frameControl(_ frame: BuiltFrame) -> [UInt8] {
            var data: [UInt8] = []
            data.append32(sequence, .bigEndian)
            sequence += 1
            data.append32(frame.width, .bigEndian)
            data.append32(frame.height, .bigEndian)
            data.append32(frame.x, .bigEndian)
            data.append32(frame.y, .bigEndian)
            data.append16(frame.numerator, .bigEndian)
            data.append16(frame.denominator, .bigEndian)
            data += [0, 0]
            return PNGBuilder.chunk("fcTL", data)
        }
        func frameData() -> [UInt8] {
            var data: [UInt8] = []
            data.append32(sequence, .bigEndian)
            sequence += 1
            return PNGBuilder.chunk("fdAT", data + [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
        }
        var rest = frames[...]
        if defaultImageIsFirstFrame, let first = rest.popFirst() { bytes += frameControl(first) }
        bytes += PNGBuilder.imageData
        for frame in rest { bytes += frameControl(frame) + frameData() }
        return bytes + PNGBuilder.end
    }

    /// The frames as a scan reports them: a stored denominator of 0 means 100.
    public static func reported(_ frames: [BuiltFrame]) -> [BuiltFrame] {
        frames.map { frame in
            var frame = frame
            if frame.denominator == 0 { frame.denominator = 100 }
            return frame
        }
    }
}

/// Animated WebP: VP8X with the animation flag, ANIM, then one ANMF per frame.
public enum AnimatedWebPBuilder {
    /// Frames' `numerator` is the duration in milliseconds (`denominator` 1000); x and y must
    /// be even (the format stores half of each).
    public static func file(
        width: Int, height: Int, loop: Int, frames: [BuiltFrame], exifAfter: [UInt8]? = nil
    ) -> [UInt8] {
        var animation: [UInt8] = [0, 0, 0, 0]
        animation.append16(loop, .littleEndian)
        var chunks = WebPBuilder.chunk("ANIM", animation)
        for frame in frames {
            var header: [UInt8] = []
            header.append24(frame.x / 2, .littleEndian)
            header.append24(frame.y / 2, .littleEndian)
            header.append24(frame.width - 1, .littleEndian)
            header.append24(frame.height - 1, .littleEndian)
            header.append24(frame.numerator, .littleEndian)
            header.append(0)
            var bitstream: [UInt8] = [0x2F]
            bitstream.append32((frame.width - 1) | (frame.height - 1) << 14, .littleEndian)
            bitstream.appendFiller(6)
            chunks += WebPBuilder.chunk("ANMF", header + WebPBuilder.chunk("VP8L", bitstream))
        }
        var flags = WebPBuilder.flagAnimation
        if let exifAfter {
            flags |= WebPBuilder.flagEXIF
            chunks += WebPBuilder.chunk("EXIF", exifAfter)
        }
        return WebPBuilder.extended(width: width, height: height, flags: flags, chunks: chunks)
    }
}

/// ISOBMFF image sequences: `moov` with `trak`s of samples, and optionally a `meta`.
public enum SequenceBuilder {
    /// An edit list: the repeat flag, one segment (in the movie timescale) and the box version.
    public struct Edit: Sendable {
        public var repeats: Bool
        public var segmentDuration: UInt64
        public var version: UInt8

        public init(repeats: Bool, segmentDuration: UInt64, version: UInt8 = 0) {
            self.repeats = repeats
            self.segmentDuration = segmentDuration
            self.version = version
        }
    }

    public struct Track: Sendable {
        public var width: Int
        public var height: Int
        public var timescale: Int
        /// `stts` runs: sample count and delta.
        public var runs: [(count: Int, delta: Int)]
        public var handler = "pict"
        public var sampleEntry = "av01"
        /// An alpha or depth track: `tref/auxl` to track 1.
        public var auxiliary = false
        /// `tkhd` duration in the movie timescale; nil writes all ones (indefinite).
        public var trackDuration: UInt64? = nil
        public var edit: Edit? = nil
        /// `edts` after `mdia`, as libheif writes it.
        public var editAfterMedia = false
        public var headerVersion: UInt8 = 0

        public init(width: Int, height: Int, timescale: Int, runs: [(count: Int, delta: Int)]) {
            self.width = width
            self.height = height
            self.timescale = timescale
            self.runs = runs
        }

        /// The frames a scan of this track reports.
        public var frames: [BuiltFrame] {
            runs.flatMap { run in
                Array(repeating: BuiltFrame(numerator: run.delta, denominator: timescale, width: width, height: height), count: run.count)
            }
        }
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { ISOBMFFBuilder.box(type, payload) }
    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        ISOBMFFBuilder.fullBox(type, version: version, flags: flags, payload)
    }

    static func trak(_ track: Track, id: Int) -> [UInt8] {
        let version = track.headerVersion
        var header: [UInt8] = []
        let timeWidth = version == 1 ? 8 : 4
        header.append(0, width: timeWidth * 2, .bigEndian)  // creation and modification times
        header.append32(id, .bigEndian)
        header.append32(0, .bigEndian)
        header.append(track.trackDuration ?? UInt64.max, width: timeWidth, .bigEndian)
        header.append(0, width: 8, .bigEndian)  // reserved
        header += [0, 0, 0, 0, 0, 0, 0, 0]  // layer, alternate group, volume, reserved
        for value in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { header.append32(value, .bigEndian) }
        header.append32(track.width << 16, .bigEndian)
        header.append32(track.height << 16, .bigEndian)
        let tkhd = fullBox("tkhd", version: version, flags: 3, header)

        var mediaHeader: [UInt8] = []
        mediaHeader.append(0, width: timeWidth * 2, .bigEndian)
        mediaHeader.append32(track.timescale, .bigEndian)
        let total = track.runs.reduce(0) { $0 + $1.count * $1.delta }
        mediaHeader.append(UInt64(total), width: timeWidth, .bigEndian)
        mediaHeader += [0x55, 0xC4, 0, 0]
        let mdhd = fullBox("mdhd", version: version, mediaHeader)
        let hdlr = fullBox("hdlr", [0, 0, 0, 0] + ascii(track.handler) + [UInt8](repeating: 0, count: 12) + [0])

        var description: [UInt8] = []
        description.append32(1, .bigEndian)
        description += box(track.sampleEntry, [UInt8](repeating: 0, count: 78))
        var timeToSample: [UInt8] = []
        timeToSample.append32(track.runs.count, .bigEndian)
        for run in track.runs {
            timeToSample.append32(run.count, .bigEndian)
            timeToSample.append32(run.delta, .bigEndian)
        }
        let samples = track.runs.reduce(0) { $0 + $1.count }
        var sizes: [UInt8] = []
        sizes.append32(4, .bigEndian)
        sizes.append32(samples, .bigEndian)
        let stbl = box("stbl", fullBox("stsd", description) + fullBox("stts", timeToSample) + fullBox("stsz", sizes))
        let minf = box("minf", fullBox("vmhd", flags: 1, [0, 0, 0, 0, 0, 0, 0, 0]) + stbl)
        let mdia = box("mdia", mdhd + hdlr + minf)

        var edts: [UInt8] = []
        if let edit = track.edit {
            var list: [UInt8] = []
            list.append32(1, .bigEndian)
            let width = edit.version == 1 ? 8 : 4
            list.append(edit.segmentDuration, width: width, .bigEndian)
            list.append(0, width: width, .bigEndian)  // media time
            list.append32(0x0001_0000, .bigEndian)  // rate 1.0
            edts = box("edts", fullBox("elst", version: edit.version, flags: edit.repeats ? 1 : 0, list))
        }
        var tref: [UInt8] = []
        if track.auxiliary {
            var reference: [UInt8] = []
            reference.append32(1, .bigEndian)
            tref = box("tref", box("auxl", reference))
        }
        return box("trak", tkhd + tref + (track.editAfterMedia ? mdia + edts : edts + mdia))
    }

    /// `moov` with `mvhd` and the tracks, numbered from 1.
    public static func moov(_ tracks: [Track], timescale: Int = 1000) -> [UInt8] {
        var movieHeader: [UInt8] = []
        movieHeader.append(0, width: 8, .bigEndian)
        movieHeader.append32(timescale, .bigEndian)
        movieHeader.append32(-1, .bigEndian)
        movieHeader.appendFiller(80)
        return box("moov", fullBox("mvhd", movieHeader) + tracks.enumerated().flatMap { trak($0.element, id: $0.offset + 1) })
    }

    /// ftyp, then `meta` (if any) and `moov` in the order asked, then `mdat`.
    public static func file(
        major: String, compatible: [String], meta: [UInt8]? = nil, tracks: [Track], moovFirst: Bool = false,
        mdatBytes: Int = 64
    ) -> [UInt8] {
        var mdat: [UInt8] = []
        mdat.appendFiller(mdatBytes)
        let movie = moov(tracks)
        let middle = moovFirst ? movie + (meta ?? []) : (meta ?? []) + movie
        return ISOBMFFBuilder.ftyp(major: major, compatible: compatible) + middle + box("mdat", mdat)
    }
}
