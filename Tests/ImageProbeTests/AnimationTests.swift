import ImageProbe
import ImageProbeFixtures
import Testing

let animationMode = ScanOptions(mode: .animation)

/// Checks an animation-mode outcome against the frames a builder wrote: every frame event
/// (the chunking verifier has already checked they come out the same under every
/// chunking), the count, both durations and the largest rectangle.
func expectFrames(
    _ outcome: ScanOutcome, _ frames: [BuiltFrame], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(outcome.frames == frames.events, sourceLocation: sourceLocation)
    guard case .done(let found) = outcome.status else {
        Issue.record("expected done, got \(outcome)", sourceLocation: sourceLocation)
        return
    }
    #expect(found.frameCount == frames.count, sourceLocation: sourceLocation)
    #expect(found.isAnimated == (frames.count > 1), sourceLocation: sourceLocation)
    if frames.count > 1 {
        #expect(found.duration.map { abs($0 - frames.duration) < 0.001 } == true, "\(found.duration as Any) vs \(frames.duration)", sourceLocation: sourceLocation)
        #expect(found.playbackDuration.map { abs($0 - frames.playbackDuration) < 0.001 } == true, "\(found.playbackDuration as Any) vs \(frames.playbackDuration)", sourceLocation: sourceLocation)
        #expect(found.largestFrame == frames.largest, sourceLocation: sourceLocation)
    } else {
        #expect(found.duration == nil && found.playbackDuration == nil, sourceLocation: sourceLocation)
    }
}

@Suite struct GIFAnimationTests {
    /// The issue's example: 4 frames of 10/100/200/0 ms, loop 3.
    static let exampleBlocks: [AnimatedGIFBuilder.Block] = [
        .loop(3),
        .image(centiseconds: 1, x: 0, y: 0, width: 120, height: 80),
        .image(centiseconds: 10, x: 0, y: 0, width: 120, height: 80),
        .image(centiseconds: 20, x: 0, y: 0, width: 120, height: 80),
        .image(centiseconds: 0, x: 0, y: 0, width: 120, height: 80),
    ]

    @Test func fourFramesLoopThree() {
        let bytes = AnimatedGIFBuilder.file(width: 120, height: 80, blocks: Self.exampleBlocks)
        let outcome = verified(bytes, animationMode)
        expectFrames(outcome, AnimatedGIFBuilder.frames(Self.exampleBlocks))
        let found = info(outcome)
        #expect(found?.loopCount == 3)
        #expect(found?.duration == 310)
        #expect(found?.playbackDuration == 500)
        #expect(outcome.bytesConsumed == UInt64(bytes.count))  // to the trailer
        #expect(found?.description == "gif 120x80, 1-bit, 4 frames, loop 3, 0.31 s (played 0.50 s)")
    }

    @Test func fullModeStopsAtTheSecondImageWhenALoopExtensionAnnouncesAnAnimation() {
        let bytes = AnimatedGIFBuilder.file(width: 120, height: 80, blocks: Self.exampleBlocks)
        let outcome = verified(bytes)
        let found = info(outcome)
        #expect(found?.isAnimated == true)
        #expect(found?.loopCount == 3)
        #expect(found?.frameCount == nil)
        // Header, screen and table (19), loop extension (19), then two images of a control
        // extension (8) and a descriptor with its data (10 + 1 + 4 + 1): done after the
        // second descriptor.
        #expect(outcome.bytesConsumed == 19 + 19 + 8 + 16 + 8 + 10)
    }

    @Test func fullModeLeavesAStillLookingGIFOpenAtTheFirstImage() {
        let blocks: [AnimatedGIFBuilder.Block] = [
            .image(centiseconds: 5, x: 0, y: 0, width: 4, height: 4), .image(centiseconds: 5, x: 0, y: 0, width: 4, height: 4),
        ]
        let bytes = AnimatedGIFBuilder.file(width: 4, height: 4, blocks: blocks)
        let full = info(verified(bytes))
        #expect(full?.isAnimated == nil)
        #expect(full?.loopCount == nil)
        // Animation mode walks on and settles it.
        expectFrames(verified(bytes, animationMode), AnimatedGIFBuilder.frames(blocks))
    }

    @Test func aLoopExtensionWithOneImageIsStill() {
        let blocks: [AnimatedGIFBuilder.Block] = [.loop(0), .image(centiseconds: 7, x: 0, y: 0, width: 4, height: 4, dataBlocks: [255, 255, 3])]
        let bytes = AnimatedGIFBuilder.file(width: 4, height: 4, blocks: blocks)
        let full = info(verified(bytes))
        #expect(full?.isAnimated == false)
        #expect(full?.loopCount == 0)
        let animated = verified(bytes, animationMode)
        expectFrames(animated, AnimatedGIFBuilder.frames(blocks))
        #expect(info(animated)?.loopCount == 0)
    }

    @Test(arguments: ["NETSCAPE2.0", "ANIMEXTS1.0"])
    func bothLoopApplicationsAndTheFirstWins(application: String) {
        let blocks: [AnimatedGIFBuilder.Block] = [
            .application("XMP DataXMP", [20, 3]), .loop(5, application: application), .loop(9),
            .image(centiseconds: 3, x: 0, y: 0, width: 2, height: 2), .image(centiseconds: 3, x: 0, y: 0, width: 2, height: 2),
        ]
        let bytes = AnimatedGIFBuilder.file(width: 2, height: 2, blocks: blocks)
        #expect(info(verified(bytes))?.loopCount == 5)
        #expect(info(verified(bytes, animationMode))?.loopCount == 5)
    }

    @Test func subRectanglesLocalTablesCommentsAndAControlWithoutAnImage() {
        let blocks: [AnimatedGIFBuilder.Block] = [
            .comment([10, 200]),
            .image(centiseconds: nil, x: 0, y: 0, width: 120, height: 80, localTableBits: 2),
            .controlOnly(centiseconds: 99),  // replaced by the next control extension
            .image(centiseconds: 4, x: 10, y: 5, width: 40, height: 30, dataBlocks: [1, 255, 0]),
            .image(centiseconds: nil, x: 50, y: 50, width: 60, height: 20),  // no control: delay 0
            .comment([1]),
            .controlOnly(centiseconds: 50),  // applies to no image
        ]
        let bytes = AnimatedGIFBuilder.file(width: 120, height: 80, blocks: blocks)
        let outcome = verified(bytes, animationMode)
        let frames = AnimatedGIFBuilder.frames(blocks)
        expectFrames(outcome, frames)
        #expect(outcome.frames.map(\.delay) == [0, 40, 0])
        #expect(outcome.frames.map(\.playbackDelay) == [100, 40, 100])
        #expect(info(outcome)?.largestFrame == FrameRect(x: 0, y: 0, width: 120, height: 80))
        #expect(info(outcome)?.loopCount == nil)
    }

    @Test func aMissingTrailerGivesAPartialAnswerWithTheFramesSoFar() {
        let blocks = Array(Self.exampleBlocks.prefix(3))
        let bytes = AnimatedGIFBuilder.file(width: 120, height: 80, blocks: blocks, trailer: false)
        let outcome = verified(bytes, animationMode)
        #expect(outcome.frames == AnimatedGIFBuilder.frames(blocks).events)
        let found = info(outcome)
        #expect(found?.isPartial == true)
        #expect(found?.frameCount == 2)
        #expect(found?.duration == 110)
    }

    @Test func moreFramesThanMaxEntriesKeepsTheSize() {
        let blocks = [AnimatedGIFBuilder.Block](
            repeating: .image(centiseconds: 2, x: 0, y: 0, width: 3, height: 3), count: 6)
        let bytes = AnimatedGIFBuilder.file(width: 3, height: 3, blocks: blocks)
        var options = animationMode
        options.maxEntries = 4
        let outcome = verified(bytes, options)
        let found = info(outcome)
        #expect(found?.size == [3, 3])
        #expect(found?.partialReason?.code == .limitExceeded)
        #expect(found?.partialReason.map { "\($0.message)" } == "more frames than maxEntries")
        #expect(outcome.frames.count == 4)
    }

    @Test func stillGIFsInAnimationModeHaveOneFrameAndNoTiming() {
        let bytes = GIFBuilder.image(width: 5, height: 6)
        let outcome = verified(bytes, animationMode)
        let found = info(outcome)
        #expect(found?.frameCount == 1)
        #expect(found?.isAnimated == false)
        #expect(found?.duration == nil)
        #expect(outcome.frames.count == 1)
    }
}

@Suite struct APNGAnimationTests {
    static let frames = [
        BuiltFrame(numerator: 1, denominator: 100, width: 120, height: 80),
        BuiltFrame(numerator: 1, denominator: 10, x: 10, y: 5, width: 40, height: 30),
        BuiltFrame(numerator: 20, denominator: 0, width: 120, height: 80),  // 0 means 100: 200 ms
        BuiltFrame(numerator: 0, denominator: 1, width: 60, height: 90),
        BuiltFrame(numerator: 1, denominator: 95, width: 1, height: 1),  // 10.5 ms: played as 100
    ]

    @Test(arguments: [true, false])
    func everyFrameControl(defaultImageIsFirstFrame: Bool) {
        let bytes = APNGBuilder.file(width: 120, height: 90, frames: Self.frames, plays: 7, defaultImageIsFirstFrame: defaultImageIsFirstFrame)
        let outcome = verified(bytes, animationMode)
        let reported = APNGBuilder.reported(Self.frames)
        expectFrames(outcome, reported)
        #expect(info(outcome)?.loopCount == 7)
        #expect(info(outcome)?.largestFrame == FrameRect(x: 0, y: 0, width: 120, height: 80))
        #expect(outcome.frames[4].playbackDelay == 100)
        // Full mode: acTL settles it, and the loop count sits in the same chunk.
        let full = info(verified(bytes))
        #expect(full?.isAnimated == true)
        #expect(full?.frameCount == 5)
        #expect(full?.loopCount == 7)
    }

    @Test func oneFrameIsStill() {
        let bytes = APNGBuilder.file(width: 4, height: 4, frames: [BuiltFrame(numerator: 1, denominator: 2, width: 4, height: 4)], plays: 0)
        #expect(info(verified(bytes))?.isAnimated == false)
        expectFrames(verified(bytes, animationMode), [BuiltFrame(numerator: 1, denominator: 2, width: 4, height: 4)])
    }

    @Test func stillPNGInAnimationModeKeepsItsAnswer() {
        let bytes = PNGBuilder.image(width: 8, height: 8)
        let outcome = verified(bytes, animationMode)
        #expect(info(outcome)?.isAnimated == false)
        #expect(info(outcome)?.frameCount == nil)
        #expect(outcome.frames.isEmpty)
    }
}

@Suite struct WebPAnimationTests {
    static let frames = [
        BuiltFrame(numerator: 10, denominator: 1000, width: 120, height: 80),
        BuiltFrame(numerator: 100, denominator: 1000, x: 10, y: 6, width: 41, height: 30),
        BuiltFrame(numerator: 200, denominator: 1000, width: 120, height: 80),
        BuiltFrame(numerator: 0, denominator: 1000, x: 50, y: 50, width: 70, height: 30),
    ]

    @Test func everyFrameAndTheLoopCount() {
        let bytes = AnimatedWebPBuilder.file(width: 120, height: 80, loop: 3, frames: Self.frames)
        let outcome = verified(bytes, animationMode)
        expectFrames(outcome, Self.frames)
        #expect(info(outcome)?.loopCount == 3)
        #expect(info(outcome)?.duration == 310)
        #expect(info(outcome)?.playbackDuration == 500)
        // Full mode reads ANIM and stops.
        let full = verified(bytes)
        #expect(info(full)?.isAnimated == true)
        #expect(info(full)?.loopCount == 3)
        #expect(full.bytesConsumed == 12 + 18 + 14)
    }

    @Test func exifAfterTheFramesIsStillRead() {
        let tiff = TIFFBuilder(byteOrder: .littleEndian, entries: [.orientation(6)]).build()
        let bytes = AnimatedWebPBuilder.file(width: 120, height: 80, loop: 0, frames: Self.frames, exifAfter: tiff)
        let outcome = verified(bytes, animationMode)
        expectFrames(outcome, Self.frames)
        #expect(info(outcome)?.orientation == .rotate90Clockwise)
        #expect(info(outcome)?.loopCount == 0)
    }

    @Test func stillWebPsAreNotAnimated() {
        #expect(info(verified(WebPBuilder.lossy(width: 30, height: 20)))?.isAnimated == false)
        #expect(info(verified(WebPBuilder.lossless(width: 30, height: 20, alpha: false)))?.isAnimated == false)
        let extended = WebPBuilder.extended(width: 30, height: 20, flags: WebPBuilder.flagAlpha, chunks: WebPBuilder.lossyFrame(width: 30, height: 20))
        #expect(info(verified(extended))?.isAnimated == false)
        #expect(info(verified(extended, animationMode))?.frameCount == nil)
    }
}

@Suite struct SequenceAnimationTests {
    static func track(_ runs: [(count: Int, delta: Int)], timescale: Int = 1000) -> SequenceBuilder.Track {
        SequenceBuilder.Track(width: 96, height: 64, timescale: timescale, runs: runs)
    }

    @Test func aHEIFSequenceWithoutMetaAnswersFromItsTrack() {
        var colour = Self.track([(1, 40), (2, 100), (1, 0)])
        colour.sampleEntry = "hvc1"
        colour.trackDuration = 3 * 240
        colour.edit = SequenceBuilder.Edit(repeats: true, segmentDuration: 240)
        colour.editAfterMedia = true
        let bytes = SequenceBuilder.file(major: "msf1", compatible: ["msf1", "hevc", "iso8"], tracks: [colour])
        let full = verified(bytes)
        let found = info(full)
        #expect(found?.format == .heif)
        #expect(found?.size == [96, 64])
        #expect(found?.isAnimated == true)
        let animated = verified(bytes, animationMode)
        expectFrames(animated, colour.frames)
        #expect(info(animated)?.loopCount == 3)  // tkhd duration 3 × the segment
        #expect(info(animated)?.playbackDuration == 340)
    }

    @Test func anAVIFSequenceTakesTheColourTrackNotTheAlphaTrack() {
        var alpha = Self.track([(5, 10)], timescale: 90000)
        alpha.auxiliary = true
        alpha.handler = "auxv"
        var colour = Self.track([(3, 9000), (1, 900)], timescale: 90000)
        colour.edit = SequenceBuilder.Edit(repeats: true, segmentDuration: 310, version: 1)
        colour.headerVersion = 1
        let meta = ISOBMFFBuilder.meta(
            primary: 1, items: [ISOBMFFBuilder.Item(id: 1, type: "av01", properties: [1])],
            properties: [.ispe(width: 96, height: 64)])
        for moovFirst in [false, true] {
            let bytes = SequenceBuilder.file(major: "avis", compatible: ["avif", "avis", "msf1"], meta: meta, tracks: [alpha, colour], moovFirst: moovFirst)
            let outcome = verified(bytes, animationMode)
            expectFrames(outcome, colour.frames)
            let found = info(outcome)
            #expect(found?.format == .avif)
            #expect(found?.size == [96, 64])
            #expect(found?.loopCount == 0)  // repeat flag, indefinite duration: forever
            #expect(outcome.frames.map(\.delay) == [100, 100, 100, 10])
        }
    }

    @Test func loopCountsFromTheEditList() {
        let cases: [(edit: SequenceBuilder.Edit?, duration: UInt64?, loop: Int?)] = [
            (nil, 400, nil),  // no edts: unknown
            (SequenceBuilder.Edit(repeats: false, segmentDuration: 400), 400, 1),  // plays once
            (SequenceBuilder.Edit(repeats: true, segmentDuration: 400), nil, 0),  // forever
            (SequenceBuilder.Edit(repeats: true, segmentDuration: 400), 1000, 3),  // ceil(1000 / 400)
            (SequenceBuilder.Edit(repeats: true, segmentDuration: 0), 1000, nil),  // no segment: unknown
        ]
        for (edit, duration, loop) in cases {
            var colour = Self.track([(4, 100)])
            colour.edit = edit
            colour.trackDuration = duration
            let bytes = SequenceBuilder.file(major: "msf1", compatible: ["msf1", "hevc"], tracks: [colour])
            #expect(info(verified(bytes, animationMode))?.loopCount == loop, "\(String(describing: edit)) \(String(describing: duration))")
        }
    }

    @Test func aStillAVIFIsNotAnimatedAndAnimationModeStopsAtMeta() {
        let meta = ISOBMFFBuilder.meta(
            primary: 1, items: [ISOBMFFBuilder.Item(id: 1, type: "av01", properties: [1])],
            properties: [.ispe(width: 10, height: 20)])
        let bytes = ISOBMFFBuilder.file(major: "avif", compatible: ["avif", "mif1"], meta: meta)
        let full = verified(bytes)
        let animated = verified(bytes, animationMode)
        #expect(info(full)?.isAnimated == false)
        #expect(info(animated)?.isAnimated == false)
        #expect(animated.bytesConsumed == full.bytesConsumed)
        #expect(animated.frames.isEmpty)
    }

    @Test func moreSamplesThanMaxEntriesKeepsTheSize() {
        let bytes = SequenceBuilder.file(major: "msf1", compatible: ["msf1"], tracks: [Self.track([(1_000_000, 1)])])
        var options = animationMode
        options.maxEntries = 100
        let outcome = verified(bytes, options)
        #expect(info(outcome)?.size == [96, 64])
        #expect(info(outcome)?.partialReason.map { "\($0.message)" } == "more frames than maxEntries")
        #expect(outcome.frames.count == 100)
    }
}
