#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
extension ISOBMFFParser {
    /// The primary track of an image sequence's `moov`: the first `trak` whose handler is
    /// `pict` or `vide` and that is not an auxiliary (`tref/auxl`, alpha or depth) track, as
    /// libavif chooses it. Its `tkhd` gives the size when there is no `meta`, its `stts` runs
    /// over the `mdhd` timescale give the frames, and `elst` with `tkhd` give the loop count.
    /// A sub-machine of the parser: the parser routes these boxes here and walks the rest;
    /// each of its phases (`Phase`'s track group) is a transition here.
    struct PrimaryTrack: Sendable {
        /// What the track being read says.
        struct Summary: Sendable {
            /// `tkhd` duration, in the movie timescale; UInt64.max when indefinite (all ones).
            var duration: UInt64 = 0
            var timescale: UInt32 = 0
            /// The plays `elst` and `tkhd` give (0 forever), when `hasLoopCount`.
            var loopCount: UInt32 = 0
            /// `tkhd`'s integer parts: 16 bits each.
            var width: UInt16 = 0
            var height: UInt16 = 0
            var hasLoopCount = false
            /// The handler is `pict` or `vide`.
            var isVisual = false
            /// An alpha or depth track (`tref/auxl`).
            var isAuxiliary = false

            init() {}

            /// The primary track: visual, not auxiliary, with a size and a clock.
            var qualifies: Bool { isVisual && !isAuxiliary && width != 0 && height != 0 && timescale != 0 }
        }

        /// The `trak` being read, and once `hasPrimaryTrack`, the primary track (later `trak`s
        /// are skipped whole).
        var summary = Summary()
        /// The frames of the current `stts` run not yet reported, and their delta.
        var runFramesLeft: UInt32 = 0
        var runDelta: UInt32 = 0
        var flags = PackedFlags<Flag, UInt8>()

        enum Flag: UInt8, CaseIterable {
            case hasPrimaryTrack
            /// Animation mode: a track's `stts` has been walked (only one track's frames count).
            case walkedFrames
            case moovDone
        }

        init() {}

        var hasPrimaryTrack: Bool { get { flags[.hasPrimaryTrack] } set { flags[.hasPrimaryTrack] = newValue } }
        var walkedFrames: Bool { get { flags[.walkedFrames] } set { flags[.walkedFrames] = newValue } }
        var moovDone: Bool { get { flags[.moovDone] } set { flags[.moovDone] = newValue } }

        // MARK: Starting boxes (the parser routes them here)

        /// The leaf box of `type` in the track container `level`, when it is one the track
        /// reads there and `room` holds what it needs.
        static func begin(_ type: UInt32, room: UInt64, in level: Level) -> BoxStart? {
            switch (type, level) {
            // Up to tkhd's duration (36 bytes, whichever the version).
            case (Box.tkhd, .trak) where room >= 84: (.read(36), .trackHeader)
            // Version, flags, entry count and the first segment's duration.
            case (Box.elst, .edts) where room >= 12: (.read(Int(truncatingIfNeeded: min(room, 16))), .editList)
            // Up to the timescale.
            case (Box.mdhd, .mdia) where room >= 16: (.read(Int(truncatingIfNeeded: min(room, 24))), .mediaHeader)
            // Up to the handler type.
            case (Box.hdlr, .mdia) where room >= 12: (.read(12), .handler)
            // Up to the first sample entry's type.
            case (Box.stsd, .stbl) where room >= 16: (.read(16), .sampleDescription)
            // Version, flags and entry count.
            case (Box.stts, .stbl) where room >= 8: (.read(8), .timeToSampleCount)
            default: nil
            }
        }

        // MARK: Reading

        // Each transition reads a field of the box being read, which ends at `walker.boxEnd`.

        /// `tkhd` up to its duration.
        mutating func header(_ field: FieldBytes, at offset: UInt64, walker: BoxWalker) -> Outcome {
            let position = offset &+ field.span
            let end = walker.boxEnd
            let version = field.u8(0)
            if version == 1 {
                summary.duration = field.be64(28)
            } else {
                let duration = field.be32(20)
                summary.duration = duration == UInt32.max ? UInt64.max : UInt64(duration)
            }
            // Then reserved, layer, alternate group, volume and matrix: 52 bytes from the
            // duration's end, which is 12 bytes before this field's end in version 0.
            let sizeAt = position &+ (version == 1 ? 52 : 40)
            guard sizeAt <= end, end &- sizeAt >= 8 else { return .boxDone(from: position, in: .trak) }
            return .next(.skipThenRead(sizeAt &- position, 8), .trackSize)
        }

        /// `tkhd`'s width and height, 16.16 fixed point.
        mutating func size(_ field: FieldBytes, at offset: UInt64) -> Outcome {
            summary.width = UInt16(truncatingIfNeeded: field.be32(0) >> 16)
            summary.height = UInt16(truncatingIfNeeded: field.be32(4) >> 16)
            return .boxDone(from: offset &+ field.span, in: .trak)
        }

        /// `elst`'s version, flags, entry count and first segment duration.
        mutating func editList(_ field: FieldBytes, at offset: UInt64) -> Outcome {
            let version = field.u8(0)
            let segment = version == 1 ? (field.count >= 16 ? field.be64(8) : 0) : UInt64(field.be32(8))
            noteEditList(flags: field.be32(0) & 0xFF_FFFF, count: field.be32(4), segment: segment)
            return .boxDone(from: offset &+ field.span, in: .edts)
        }

        /// `mdhd` up to its timescale.
        mutating func mediaHeader(_ field: FieldBytes, at offset: UInt64) -> Outcome {
            if field.u8(0) == 1 {
                if field.count >= 24 { summary.timescale = field.be32(20) }
            } else {
                summary.timescale = field.be32(12)
            }
            return .boxDone(from: offset &+ field.span, in: .mdia)
        }

        /// `hdlr` up to its handler type.
        mutating func handler(_ field: FieldBytes, at offset: UInt64) -> Outcome {
            let type = field.tag(8)
            summary.isVisual = type == Box.pict || type == Box.vide
            return .boxDone(from: offset &+ field.span, in: .mdia)
        }

        /// `stsd` up to its first sample entry's type.
        mutating func sampleDescription(_ field: FieldBytes, at offset: UInt64, brands: inout Brands) -> Outcome {
            if summary.isVisual && !summary.isAuxiliary { brands.noteCoding(field.tag(12)) }
            return .boxDone(from: offset &+ field.span, in: .stbl)
        }

        /// `stts`'s version, flags and entry count.
        mutating func timeToSampleCount(
            _ field: FieldBytes, at offset: UInt64, options: ScanOptions, walker: inout BoxWalker, _ brands: Brands
        ) -> Outcome {
            let position = offset &+ field.span
            let count = field.be32(4)
            guard UInt64(count) &* 8 <= walker.boxEnd &- position else {
                return .step(.failed(.malformed(brands.format, Failure.sttsEntriesOverrunTheirBox)))
            }
            guard options.animation && !walkedFrames && !hasPrimaryTrack && summary.qualifies && count > 0 else {
                return .boxDone(from: position, in: .stbl)
            }
            walkedFrames = true
            walker.entriesLeft = count
            return .next(.read(8), .timeToSampleEntry)
        }

        /// One `stts` run: sample count and delta.
        mutating func timeToSampleEntry(
            _ field: FieldBytes, at offset: UInt64, options: ScanOptions, walker: inout BoxWalker, _ brands: Brands
        ) -> Outcome {
            runFramesLeft = field.be32(0)
            runDelta = field.be32(4)
            walker.entriesLeft &-= 1
            // Nothing after stts in this mdia matters (edts may still follow it).
            guard walker.entriesLeft > 0 else { return .mediaDone(from: offset &+ field.span) }
            guard walker.count(limit: options.entryLimit) else {
                return .step(.failed(.limit(brands.format, .moreBoxesThanMaxEntries)))
            }
            return .step(.read(8))
        }

        /// `elst` with `tkhd`'s duration, as libavif reads them: without the repeat flag the
        /// sequence plays once; with it, one edit of `segment` plays ceil(duration / segment)
        /// times, and an indefinite duration forever. Anything else says nothing.
        mutating func noteEditList(flags: UInt32, count: UInt32, segment: UInt64) {
            if flags & 1 == 0 {
                (summary.loopCount, summary.hasLoopCount) = (1, true)
                return
            }
            guard count == 1, segment != 0, summary.duration != 0 else { return }
            summary.hasLoopCount = true
            guard summary.duration != UInt64.max else {
                summary.loopCount = 0
                return
            }
            let plays = summary.duration / segment &+ (summary.duration % segment == 0 ? 0 : 1)
            summary.loopCount = plays > UInt64(UInt32.max) ? 0 : UInt32(plays)
        }

        /// A `trak` has ended: the primary track, when it qualifies and is the first that
        /// does. In full mode, with no `meta` before it (`metaStarted`), it is the image.
        mutating func trackEnded(options: ScanOptions, _ brands: Brands, metaStarted: Bool) -> Step? {
            guard !hasPrimaryTrack && summary.qualifies else { return nil }
            guard options.admits(width: UInt64(summary.width), height: UInt64(summary.height)) else {
                return .failed(.tooLarge(brands.format))
            }
            hasPrimaryTrack = true
            return !options.animation && !metaStarted ? .done : nil
        }

        /// The next frame of the `stts` run being read: every sample is a frame the size of
        /// the track, shown for delta / timescale seconds.
        mutating func takeFrame() -> PendingFrames? {
            guard runFramesLeft > 0 else { return nil }
            runFramesLeft &-= 1
            return PendingFrames(
                numerator: runDelta, denominator: summary.timescale, x: 0, y: 0,
                width: UInt32(summary.width), height: UInt32(summary.height))
        }
    }
}
#endif
