import Foundation
@testable import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct JXLTests {
    typealias Size = JXLBuilder.Size

    /// Checks a bare codestream in both modes: the size, where each answer ends, and the
    /// orientation full mode finds.
    func expectCodestream(_ stream: JXLBuilder.Codestream, width: Int, height: Int, orientation: Int = 1,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        let dimensions = verified(stream.bytes, dimensionsOnly, sourceLocation: sourceLocation)
        #expect(info(dimensions, sourceLocation: sourceLocation)?.size == [width, height], sourceLocation: sourceLocation)
        #expect(info(dimensions, sourceLocation: sourceLocation)?.orientation == nil, sourceLocation: sourceLocation)
        #expect(dimensions.bytesConsumed == UInt64(stream.sizeEnd), sourceLocation: sourceLocation)
        let full = verified(stream.bytes, sourceLocation: sourceLocation)
        let found = info(full, sourceLocation: sourceLocation)
        #expect(found?.format == .jxl, sourceLocation: sourceLocation)
        #expect(found?.size == [width, height], sourceLocation: sourceLocation)
        #expect(found?.orientation?.rawValue == UInt8(orientation), sourceLocation: sourceLocation)
        #expect(found?.isPartial == false, sourceLocation: sourceLocation)
        #expect(full.bytesConsumed == UInt64(stream.fullModeEnd), sourceLocation: sourceLocation)
    }

    // MARK: SizeHeader

    @Test func smallSizes() {
        for height in [8, 16, 248, 256] {
            for width in [8, 136, 256] {
                let stream = JXLBuilder.codestream(Size(height: height, width: width, small: true))
                #expect(stream.sizeHeaderBits == 14)
                expectCodestream(stream, width: width, height: height)
            }
        }
    }

    @Test(arguments: 0..<4)
    func everyDistributionOfTheHeightAndWidth(heightSelector: Int) {
        let heightBits = JXLBuilder.selectorBits[heightSelector]
        for height in [1, 1 << heightBits] {
            for widthSelector in 0..<4 {
                let widthBits = JXLBuilder.selectorBits[widthSelector]
                for width in [1, 1 << widthBits] {
                    let size = Size(height: height, width: width, heightSelector: heightSelector, widthSelector: widthSelector)
                    let stream = JXLBuilder.codestream(size)
                    #expect(stream.sizeHeaderBits == 1 + 2 + heightBits + 3 + 2 + widthBits)
                    expectCodestream(stream, width: width, height: height)
                }
            }
        }
    }

    @Test func sizesAnEncoderWouldWrite() {
        // The corpus's shapes: 2^12, 2^16 and 2^24 wide or tall, 16:9, odd sizes.
        for (width, height) in [(4096, 1), (1, 65536), (1 << 24, 1), (1, 1 << 24), (1920, 1080), (1386, 924), (257, 257), (1, 1)] {
            expectCodestream(JXLBuilder.codestream(width: width, height: height), width: width, height: height)
        }
    }

    @Test(arguments: 1...7)
    func aspectRatioShortcut(code: Int) {
        let (numerator, denominator) = JXLBuilder.ratios[code - 1]
        for (height, selector) in [(1, 0), (7, 0), (9, 0), (100, 0), (1080, 1), (123_457, 2), (99_999_999, 3)] {
            let stream = JXLBuilder.codestream(Size(height: height, width: 0, ratio: code, heightSelector: selector))
            // floor(height × num / den), in integers.
            expectCodestream(stream, width: height * numerator / denominator, height: height)
        }
        for height in stride(from: 8, through: 256, by: 8) {
            let stream = JXLBuilder.codestream(Size(height: height, width: 0, small: true, ratio: code))
            #expect(stream.sizeHeaderBits == 9)
            expectCodestream(stream, width: height * numerator / denominator, height: height)
        }
    }

    @Test func aspectRatioWidthsAreFloored() {
        // 12/10 of 7 is 8.4; 16/9 of 10 is 17.8; 4/3 of 2 is 2.67.
        for (code, height, width) in [(2, 7, 8), (5, 10, 17), (3, 2, 2), (6, 3, 3), (4, 3, 4)] {
            expectCodestream(JXLBuilder.codestream(Size(height: height, width: 0, ratio: code)), width: width, height: height)
        }
    }

    @Test(arguments: 1...7)
    func aspectRatioAtTheLargestHeightDoesNotOverflow(code: Int) {
        let height = 1 << 30
        let bytes = JXLBuilder.codestream(Size(height: height, width: 0, ratio: code, heightSelector: 3)).bytes
        let (numerator, denominator) = JXLBuilder.ratios[code - 1]
        let width = Int(UInt64(height) * UInt64(numerator) / UInt64(denominator))
        var unlimited = dimensionsOnly
        unlimited.maxWidth = Int.max
        #expect(info(verified(bytes, unlimited))?.size == [width, height])
        // The default limit is 2^30 a side.
        if width > 1 << 30 {
            #expect(failureCode(verified(bytes)) == .limitExceeded)
        } else {
            #expect(info(verified(bytes))?.size == [width, height])
        }
    }

    @Test func sizeLimits() {
        var options = ScanOptions()
        options.maxHeight = 999
        let bytes = JXLBuilder.codestream(width: 10, height: 1000).bytes
        #expect(failureCode(verified(bytes, options)) == .limitExceeded)
        options.maxHeight = 1000
        #expect(info(verified(bytes, options))?.size == [10, 1000])
    }

    // MARK: ImageMetadata

    static let sRGB = CICP(colourPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true)
    static let animationMode = ScanOptions(mode: .animation)

    /// A still image with valid metadata through the colour encoding.
    static func still(_ size: JXLBuilder.Size = .preferred(width: 300, height: 200), orientation: Int = 1,
                      _ configure: (inout JXLImage) -> Void = { _ in }) -> JXLStream {
        var image = JXLImage(size: size)
        image.orientation = orientation
        configure(&image)
        // What would follow: the first frame.
        var stream = JXLWriter.write(image)
        stream.bytes.appendFiller(24, seed: 0x5A)
        return stream
    }

    /// Checks a written codestream in every mode: dimensions-only mode ends at the size and sets
    /// nothing more, full mode at the end of the colour encoding, animation mode (for a still
    /// image) where full mode does.
    func expectStream(_ stream: JXLStream, width: Int, height: Int, orientation: Int = 1, still: Bool = true,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let dimensions = verified(stream.bytes, dimensionsOnly, sourceLocation: sourceLocation)
        let size = info(dimensions, sourceLocation: sourceLocation)
        #expect(size?.size == [width, height], sourceLocation: sourceLocation)
        #expect(dimensions.bytesConsumed == UInt64(stream.sizeEnd), sourceLocation: sourceLocation)
        #expect(size?.orientation == nil && size?.bitDepth == nil && size?.hasAlpha == nil && size?.isAnimated == nil,
                sourceLocation: sourceLocation)
        #expect(size?.cicp == nil && size?.hasICCProfile == nil && size?.loopCount == nil, sourceLocation: sourceLocation)
        let full = verified(stream.bytes, sourceLocation: sourceLocation)
        let found = info(full, sourceLocation: sourceLocation)
        #expect(found?.size == [width, height], sourceLocation: sourceLocation)
        #expect(found?.orientation?.rawValue == UInt8(orientation), sourceLocation: sourceLocation)
        #expect(found?.isPartial == false, sourceLocation: sourceLocation)
        #expect(full.bytesConsumed == UInt64(stream.fullModeEnd), sourceLocation: sourceLocation)
        if still {
            let animation = verified(stream.bytes, Self.animationMode, sourceLocation: sourceLocation)
            #expect(animation.status == full.status && animation.bytesConsumed == full.bytesConsumed, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: 1...8)
    func orientation(_ orientation: Int) {
        let stream = Self.still(orientation: orientation)
        expectStream(stream, width: 300, height: 200, orientation: orientation)
        let found = info(verified(stream.bytes))
        #expect(found?.displayWidth == (orientation >= 5 ? 200 : 300))
        #expect(found?.bitDepth == 8)
        #expect(found?.hasAlpha == false)
        #expect(found?.isAnimated == false)
        #expect(found?.cicp == Self.sRGB)
        #expect(found?.hasICCProfile == false)
        #expect(found?.isHDR == false)
    }

    @Test(arguments: [0, 1, 7, 8, 65535, 65536, 4_000_000_000])
    func animationHeaderGivesAnimatedAndTheLoopCount(loops: Int) {
        let stream = JXLWriter.write(.animation(width: 300, height: 200, loops: loops, [.shown(100), .shown(100, last: true)]))
        expectStream(stream, width: 300, height: 200, still: false)
        let found = info(verified(stream.bytes))
        #expect(found?.isAnimated == true)
        #expect(found?.loopCount == loops)
        #expect(found?.frameCount == nil)
        let walked = info(verified(stream.bytes, Self.animationMode))
        #expect(walked?.frameCount == 2 && walked?.loopCount == loops && walked?.isAnimated == true)
        // Without the animation header, a definite still image.
        let still = info(verified(Self.still(orientation: 3).bytes))
        #expect(still?.isAnimated == false)
        #expect(still?.loopCount == nil)
    }

    @Test func defaultMetadata() {
        let stream = Self.still { $0.metadataAllDefault = true }
        #expect(stream.fullModeEnd == stream.sizeEnd || stream.fullModeEnd == stream.sizeEnd + 1)
        expectStream(stream, width: 300, height: 200)
        let found = info(verified(stream.bytes))
        #expect(found?.bitDepth == 8)
        #expect(found?.hasAlpha == false)
        #expect(found?.isAnimated == false)
        #expect(found?.cicp == Self.sRGB && found?.hasICCProfile == false && found?.isHDR == false)
        // Not all default, but no extra fields: orientation 1, and the bit depth, channels and
        // colour encoding read on.
        let plain = Self.still { $0.bitDepth = 10 }
        expectStream(plain, width: 300, height: 200)
        let facts = info(verified(plain.bytes))
        #expect(facts?.bitDepth == 10 && facts?.isAnimated == false && facts?.cicp == Self.sRGB)
    }

    @Test func bitDepthsAndExtraChannels() {
        let cases: [(bits: Int, exponent: Int?, channels: [JXLChannel], alpha: Bool)] = [
            (8, nil, [.alpha], true),
            (12, nil, [.custom(type: 1, bits: 16, dimShift: 3, name: "depth map")], false),
            (16, 5, [.custom(type: 2, bits: 8, dimShift: 0, name: ""), .custom(type: 5, bits: 8, dimShift: 3, name: "")], false),
            (32, 8, [.custom(type: 4, bits: 8, dimShift: 0, name: "K"), .custom(type: 0, bits: 10, dimShift: 0, name: String(repeating: "a", count: 300))], true),
            (24, 7, [.custom(type: 16, bits: 1, dimShift: 1, name: "optional")], false),
        ]
        for (bits, exponent, channels, alpha) in cases {
            let stream = Self.still { $0.bitDepth = bits; $0.floatExponent = exponent; $0.channels = channels }
            expectStream(stream, width: 300, height: 200)
            let found = info(verified(stream.bytes))
            #expect(found?.bitDepth == bits, "\(bits)")
            #expect(found?.hasAlpha == alpha, "\(bits)")
            #expect(found?.cicp == Self.sRGB, "\(bits)")
        }
    }

    @Test func intrinsicSizeAndPreviewAreStepped() {
        let stream = Self.still(orientation: 6) {
            $0.intrinsicSize = (1000, 700)
            $0.preview = (64, 48)
            $0.bitDepth = 10
        }
        expectStream(stream, width: 300, height: 200, orientation: 6)
        #expect(info(verified(stream.bytes))?.bitDepth == 10)
    }

    // MARK: Colour encoding

    static let colourCases: [(colour: JXLColourEncoding, cicp: CICP?)] = [
        (.allDefault, sRGB),
        (.enumerated(space: 0), sRGB),
        (.enumerated(space: 0, primaries: 9, transfer: 16), CICP(colourPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 0, isFullRange: true)),
        (.enumerated(space: 0, primaries: 9, transfer: 18), CICP(colourPrimaries: 9, transferCharacteristics: 18, matrixCoefficients: 0, isFullRange: true)),
        (.enumerated(space: 0, primaries: 11, transfer: 13), CICP(colourPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true)),
        (.enumerated(space: 0, whitePoint: 11, primaries: 11, transfer: 17),
         CICP(colourPrimaries: 11, transferCharacteristics: 17, matrixCoefficients: 0, isFullRange: true)),
        (.enumerated(space: 0, transfer: 8), CICP(colourPrimaries: 1, transferCharacteristics: 8, matrixCoefficients: 0, isFullRange: true)),
        (.enumerated(space: 0, transfer: 1, intent: 3), CICP(colourPrimaries: 1, transferCharacteristics: 1, matrixCoefficients: 0, isFullRange: true)),
        (.enumerated(space: 0, gamma: 4_545_455), CICP(colourPrimaries: 1, transferCharacteristics: 4, matrixCoefficients: 0, isFullRange: true)),
        (.enumerated(space: 0, gamma: 3_571_429), CICP(colourPrimaries: 1, transferCharacteristics: 5, matrixCoefficients: 0, isFullRange: true)),
        (.enumerated(space: 0, gamma: 5_000_000), nil),
        (.enumerated(space: 0, whitePoint: 2), nil),
        (.enumerated(space: 0, primaries: 2), nil),
        (.enumerated(space: 0, whitePoint: 10), nil),
        (.enumerated(space: 0, whitePoint: 11, primaries: 1), nil),
        (.enumerated(space: 0, whitePoint: 2, primaries: 2, transfer: 16), nil),
        (.enumerated(space: 1), CICP(colourPrimaries: 2, transferCharacteristics: 13, matrixCoefficients: 2, isFullRange: true)),
        (.enumerated(space: 1, whitePoint: 2, transfer: 16), CICP(colourPrimaries: 2, transferCharacteristics: 16, matrixCoefficients: 2, isFullRange: true)),
        (.enumerated(space: 2), nil),
    ]

    @Test(arguments: 0..<colourCases.count)
    func enumeratedColourAsCICP(index: Int) {
        let (colour, cicp) = Self.colourCases[index]
        let stream = Self.still { $0.colour = colour }
        expectStream(stream, width: 300, height: 200)
        let found = info(verified(stream.bytes))
        #expect(found?.cicp == cicp)
        #expect(found?.hasICCProfile == false)
        #expect(found?.isHDR == cicp.map { $0.transferCharacteristics == 16 || $0.transferCharacteristics == 18 })
        #expect(found?.isPartial == false)
    }

    @Test func wantICC() {
        for space in [0, 1] {
            let stream = Self.still { $0.colour = .icc(space: space) }
            expectStream(stream, width: 300, height: 200)
            let found = info(verified(stream.bytes))
            #expect(found?.hasICCProfile == true)
            #expect(found?.cicp == nil && found?.isHDR == nil)
        }
        // An animation whose profile comes first: its frames can't be reached without decoding
        // the profile, so animation mode gives the header's answer, partial.
        var image = JXLImage.animation(loops: 3, [.shown(100), .shown(100, last: true)])
        image.colour = .icc(space: 0)
        let stream = JXLWriter.write(image)
        let full = info(verified(stream.bytes))
        #expect(full?.isPartial == false && full?.hasICCProfile == true && full?.isAnimated == true)
        let walked = verified(stream.bytes, Self.animationMode)
        let partial = info(walked)
        #expect(partial?.partialReason?.code == .unsupportedFeature)
        #expect(partial?.hasICCProfile == true && partial?.isAnimated == true && partial?.loopCount == 3)
        #expect(partial?.frameCount == nil && walked.frames.isEmpty)
    }

    @Test func pqAndHLGAreHDR() {
        for transfer in [16, 18] {
            let found = info(verified(Self.still { $0.colour = .enumerated(space: 0, primaries: 9, transfer: transfer); $0.bitDepth = 16 }.bytes))
            #expect(found?.cicp?.transferCharacteristics == UInt8(transfer))
            #expect(found?.isHDR == true)
            #expect(found?.bitDepth == 16)
        }
        #expect(info(verified(Self.still { $0.colour = .enumerated(space: 0, primaries: 9, transfer: 13) }.bytes))?.isHDR == false)
    }

    /// libjxl refuses these files. Full mode reads ImageMetadata for its facts: the facts from
    /// the bad field on are missing, not the answer. Walking an animation needs every field.
    @Test func metadataOutOfRangeCostsTheFactsAfterIt() {
        let colours: [JXLColourEncoding] = [
            .enumerated(space: 3), .enumerated(space: 0, transfer: 2), .enumerated(space: 5), .enumerated(space: 0, whitePoint: 3),
            .enumerated(space: 0, primaries: 10), .enumerated(space: 0, transfer: 14), .enumerated(space: 0, gamma: 10_000_001),
            .enumerated(space: 0, gamma: 1000), .enumerated(space: 0, intent: 4),
        ]
        for colour in colours {
            let stream = Self.still(orientation: 7) { $0.colour = colour; $0.bitDepth = 12 }
            let found = info(verified(stream.bytes))
            #expect(found?.isPartial == false && found?.orientation == .transverse && found?.bitDepth == 12, "\(colour)")
            #expect(found?.cicp == nil && found?.hasICCProfile == nil, "\(colour)")
            var animated = JXLImage.animation([.shown(10), .shown(10, last: true)])
            animated.colour = colour
            let bytes = JXLWriter.write(animated).bytes
            #expect(info(verified(bytes))?.isPartial == false, "\(colour)")
            #expect(info(verified(bytes, Self.animationMode))?.partialReason?.code == .malformed, "\(colour)")
        }
        let badDepth = info(verified(Self.still { $0.bitDepth = 40 }.bytes))
        #expect(badDepth?.isPartial == false && badDepth?.bitDepth == nil && badDepth?.cicp == nil)
        let badChannel = info(verified(Self.still { $0.channels = [.custom(type: 9, bits: 8, dimShift: 0, name: "")] }.bytes))
        #expect(badChannel?.isPartial == false && badChannel?.bitDepth == 8 && badChannel?.hasAlpha == nil)
        let badShift = info(verified(Self.still { $0.channels = [.alpha, .custom(type: 0, bits: 8, dimShift: 5, name: "")] }.bytes))
        #expect(badShift?.hasAlpha == nil && badShift?.cicp == nil)
        let badFloat = info(verified(Self.still { $0.bitDepth = 16; $0.floatExponent = 1 }.bytes))
        #expect(badFloat?.bitDepth == nil && badFloat?.isPartial == false)
    }

    // MARK: Frames (animation mode)

    /// Walks `image` in animation mode: checks the answer ends at the last frame's header, and
    /// returns the answer and the events.
    func walk(_ image: JXLImage, sourceLocation: SourceLocation = #_sourceLocation) -> (ImageInfo?, [FrameInfo], JXLStream) {
        let stream = JXLWriter.write(image)
        let outcome = verified(stream.bytes, Self.animationMode, sourceLocation: sourceLocation)
        #expect(outcome.bytesConsumed == UInt64(stream.animationEnd), sourceLocation: sourceLocation)
        let found = info(outcome, sourceLocation: sourceLocation)
        #expect(found?.isPartial == false, sourceLocation: sourceLocation)
        return (found, outcome.frames, stream)
    }

    @Test func framesAndDurations() {
        let (found, frames, _) = walk(.animation(loops: 2, [.shown(100), .shown(250), .shown(33), .shown(1000, last: true)]))
        #expect(found?.frameCount == 4)
        #expect(found?.isAnimated == true && found?.loopCount == 2)
        #expect(found?.duration == 1383)
        #expect(frames.map(\.delay) == [100, 250, 33, 1000])
        #expect(frames.map(\.index) == [0, 1, 2, 3])
        #expect(frames.allSatisfy { $0.rectangle == FrameRect(x: 0, y: 0, width: 48, height: 32) })
        #expect(found?.largestFrame == FrameRect(x: 0, y: 0, width: 48, height: 32))
        // 100 ticks a second, as from a GIF; and 30000/1001 (NTSC).
        var centiseconds = JXLImage.animation([.shown(7), .shown(0), .shown(12, last: true)])
        centiseconds.animation = (100, 1, 0, false)
        let (gifLike, gifFrames, _) = walk(centiseconds)
        #expect(gifLike?.frameCount == 2 && gifFrames.map(\.delay) == [70, 120])
        var ntsc = JXLImage.animation([.shown(1), JXLFrameHeader(duration: 1, timecode: 77, isLast: true)])
        ntsc.animation = (30000, 1001, 0, true)
        let (video, videoFrames, _) = walk(ntsc)
        #expect(video?.frameCount == 2)
        #expect(videoFrames.allSatisfy { abs($0.delay - 1001.0 / 30) < 1e-9 })
    }

    @Test func aLastFrameOfDurationZeroIsShown() {
        let (found, frames, _) = walk(.animation([.shown(40), .shown(0, last: true)]))
        #expect(found?.frameCount == 2 && frames.map(\.delay) == [40, 0])
        #expect(found?.playbackDuration == 140)
        // One shown frame after layers: a still image, as libjxl shows it.
        let (still, stillFrames, _) = walk(.animation([.shown(0), .shown(0), .shown(500, last: true)]))
        #expect(still?.frameCount == 1 && still?.isAnimated == false && stillFrames.count == 1)
        // An all-default frame header is the last frame, of duration 0.
        var defaults = JXLImage.animation([.shown(20), .shown(30)])
        defaults.frames.append(JXLFrameHeader(allDefault: true))
        let (walked, delays, _) = walk(defaults)
        #expect(walked?.frameCount == 3 && delays.map(\.delay) == [20, 30, 0])
    }

    @Test func layersAreBlendedIntoTheNextShownFrame() {
        var image = JXLImage.animation([
            JXLFrameHeader(crop: (5, 5, 10, 10), blendMode: 2),
            JXLFrameHeader(crop: (30, 10, 20, 20), duration: 100),
            JXLFrameHeader(crop: (-5, -5, 20, 20)),
            JXLFrameHeader(type: 2, saveAsReference: 1, saveBefore: true),
            JXLFrameHeader(crop: (100, 100, 5, 5)),  // off the canvas
            JXLFrameHeader(crop: (40, 28, 4, 4), duration: 50, isLast: true),
        ])
        image.channels = [.alpha]
        let (found, frames, _) = walk(image)
        #expect(found?.frameCount == 2)
        #expect(found?.duration == 150)
        #expect(frames.map(\.rectangle) == [FrameRect(x: 5, y: 5, width: 43, height: 25), FrameRect(x: 0, y: 0, width: 44, height: 32)])
        #expect(found?.largestFrame == FrameRect(x: 0, y: 0, width: 44, height: 32))
    }

    @Test func everyKindOfFrameIsStepped() {
        // Several groups and passes, DC frames, reference frames, skip-progressive frames,
        // YCbCr with subsampled chroma, upsampling, modular group sizes.
        var image = JXLImage.animation(width: 600, height: 400, ticks: 100, [
            JXLFrameHeader(type: 1, dcLevel: 1, sectionSize: 7),
            JXLFrameHeader(flags: 32, duration: 10),
            JXLFrameHeader(passes: 3, downsample: [(4, 0), (2, 1)], duration: 20),
            JXLFrameHeader(type: 3, passes: 2, duration: 30),
            JXLFrameHeader(modular: true, groupSizeShift: 0, duration: 40),
            JXLFrameHeader(modular: true, upsampling: 2, groupSizeShift: 3, duration: 50),
            JXLFrameHeader(type: 2, modular: true, saveAsReference: 2, saveBefore: true),
            JXLFrameHeader(type: 1, flags: 32, dcLevel: 2),
            JXLFrameHeader(upsampling: 8, crop: (10, 10, 590, 380), duration: 60),
            JXLFrameHeader(type: 1, dcLevel: 4),
            JXLFrameHeader(passes: 11, duration: 70, isLast: true),
        ])
        image.channels = [.alpha, .custom(type: 1, bits: 8, dimShift: 3, name: "z")]
        let (found, frames, stream) = walk(image)
        #expect(stream.tocEntries.contains { $0 > 20 })
        #expect(found?.frameCount == 7)
        #expect(frames.map(\.delay) == [100, 200, 300, 400, 500, 600, 700])
        #expect(frames.map(\.rectangle)[5] == FrameRect(x: 10, y: 10, width: 590, height: 380))
        // Not XYB-coded: YCbCr frames and their chroma subsampling.
        var yCbCr = JXLImage.animation(width: 520, height: 300, [
            JXLFrameHeader(flags: 128, yCbCr: true, chroma: [0, 1, 1], duration: 5),
            JXLFrameHeader(flags: 128, yCbCr: true, chroma: [2, 0, 3], duration: 6),
            JXLFrameHeader(modular: true, yCbCr: true, chroma: [1, 1, 1], duration: 7),
            JXLFrameHeader(flags: 32 | 128, yCbCr: true, duration: 8, isLast: true),
        ])
        yCbCr.xyb = false
        let (planes, planeFrames, _) = walk(yCbCr)
        #expect(planes?.frameCount == 4 && planeFrames.map(\.delay) == [5, 6, 7, 8])
    }

    @Test func previewFrameIsNotCounted() {
        var image = JXLImage.animation(width: 400, height: 300, [.shown(100), .shown(200, last: true)])
        image.preview = (200, 150)
        image.frames.insert(JXLFrameHeader(passes: 2, sectionSize: 11), at: 0)
        let (found, frames, _) = walk(image)
        #expect(found?.frameCount == 2 && frames.map(\.delay) == [100, 200])
        // A preview that blends is refused by libjxl.
        var blending = image
        blending.frames[0] = JXLFrameHeader(blendMode: 1)
        #expect(info(verified(JXLWriter.write(blending).bytes, Self.animationMode))?.partialReason?.code == .malformed)
        // So is one with a size of its own ("Preview is not compatible with blending"), even one
        // that covers the preview and replaces, so no blending source follows: the walk ends at
        // its blending info, before the duration and `is_last` after it are read.
        for crop in [(0, 0, 200, 150), (0, 0, 260, 190)] {
            var sized = image
            sized.frames[0] = JXLFrameHeader(crop: crop)
            let stream = JXLWriter.write(sized)
            let outcome = verified(stream.bytes, Self.animationMode)
            let found = info(outcome)
            #expect(found?.partialReason?.code == .malformed && found?.width == 400 && outcome.frames.isEmpty)
            #expect(outcome.bytesConsumed == UInt64(stream.blendingEnds[0]))
        }
    }

    @Test func namesExtensionsAndLoopFiltersArePassedOver() {
        let weights: [UInt16] = [0x2E00, 0x2B00, 0x2E00, 0x2B00, 0x2E00, 0x2B00]
        var image = JXLImage.animation([
            JXLFrameHeader(duration: 1, name: "first", loopFilter: .custom(gaborish: true, gaborishWeights: weights, epfIterations: 2,
                                                                           sharp: true, weight: true, sigma: true, extensions: [9])),
            JXLFrameHeader(modular: true, duration: 2, name: String(repeating: "n", count: 1071),
                           loopFilter: .custom(gaborish: false, gaborishWeights: nil, epfIterations: 3, sharp: false, weight: true,
                                               sigma: true, extensions: []),
                           extensions: [1, 300, 5000]),
            JXLFrameHeader(duration: 3, timecode: 0x1234_5678, loopFilter: .custom(gaborish: true, gaborishWeights: nil, epfIterations: 0,
                                                                                  sharp: false, weight: false, sigma: false, extensions: [])),
            JXLFrameHeader(duration: 4, isLast: true, name: "last"),
        ])
        image.animation = (1000, 1, 0, true)
        image.orientation = 2
        image.toneMapping = (0x5BD0, 0x2E66, 0x0000)
        image.metadataExtensions = [17, 2000]
        image.customOpsin = true
        image.upsamplingWeights = 7
        image.channels = [.custom(type: 2, bits: 8, dimShift: 0, name: "spot"), .custom(type: 5, bits: 12, dimShift: 0, name: ""), .alpha]
        let (found, frames, _) = walk(image)
        #expect(found?.frameCount == 4 && frames.map(\.delay) == [1, 2, 3, 4])
        #expect(found?.orientation == .mirrorHorizontal && found?.hasAlpha == true)
        // Gaborish weights whose kernel sums to 0 are refused.
        var zeroKernel = image
        zeroKernel.frames[0].loopFilter = .custom(gaborish: true, gaborishWeights: [0xB400, 0, 0, 0, 0, 0], epfIterations: 0,
                                                  sharp: false, weight: false, sigma: false, extensions: [])
        #expect(info(verified(JXLWriter.write(zeroKernel).bytes, Self.animationMode))?.partialReason?.code == .malformed)
    }

    @Test func largeSectionsAreSkipped() {
        var image = JXLImage.animation(width: 600, height: 400, [
            JXLFrameHeader(duration: 100, sectionSize: 20_000), JXLFrameHeader(duration: 100, isLast: true, sectionSize: 2),
        ])
        image.frames[0].sectionByte = 0xFF
        let (found, _, stream) = walk(image)
        #expect(found?.frameCount == 2)
        #expect(stream.bytes.count > 180_000)
        // A reader that can seek reads the headers only.
        var scanner = HeaderScanner(options: Self.animationMode)
        var offset = 0
        while offset < stream.bytes.count {
            offset += Int(scanner.skip(scanner.pendingSkip))
            let status = scanner.feed(stream.bytes[offset..<min(stream.bytes.count, offset + 16)])
            offset = Int(scanner.bytesConsumed)
            guard case .needMore = status else { break }
        }
        #expect(info(ChunkingVerifier.scanWhole(stream.bytes, options: Self.animationMode))?.frameCount == 2)
        #expect(scanner.bytesRead < 200 && scanner.bytesConsumed == UInt64(stream.animationEnd))
    }

    @Test func aSkipRunsAcrossParts() {
        let image = JXLImage.animation(width: 300, height: 200, [
            JXLFrameHeader(duration: 10, sectionSize: 40), JXLFrameHeader(duration: 20, sectionSize: 9),
            JXLFrameHeader(duration: 30, isLast: true, sectionSize: 5),
        ])
        let stream = JXLWriter.write(image)
        let between = JPEGBox.box("jbrd", [9, 9, 9])
        // Cuts through every byte from the first frame's header to the end.
        for cut in stride(from: stream.fullModeEnd - 1, through: stream.bytes.count, by: 3) {
            let file = JXLBuilder.container(JXLBuilder.parts(stream.bytes, cuts: [cut, min(stream.bytes.count, cut + 50)], between: between))
            let outcome = verified(file.bytes, Self.animationMode)
            #expect(info(outcome)?.frameCount == 3, "cut at \(cut)")
            #expect(outcome.frames.map(\.delay) == [10, 20, 30], "cut at \(cut)")
            #expect(outcome.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.animationEnd)), "cut at \(cut)")
        }
        // One part a byte, with an empty box between: every skip crosses many boxes.
        let cuts = Array(stride(from: 1, to: stream.bytes.count, by: 7))
        let file = JXLBuilder.container(JXLBuilder.parts(stream.bytes, cuts: cuts, between: JPEGBox.box("xml ", [])))
        #expect(info(verified(file.bytes, Self.animationMode))?.frameCount == 3)
    }

    @Test func theCodestreamEndingBeforeTheLastFrame() {
        let image = JXLImage.animation([.shown(10), .shown(20), .shown(30, last: true)])
        let stream = JXLWriter.write(image)
        let firstEnd = stream.fullModeEnd + 20
        // The last part ends inside the frames: malformed, with the frames before.
        let short = Array(stream.bytes.prefix(stream.animationEnd - 1))
        let file = JXLBuilder.container([.part(Array(short.prefix(firstEnd)), index: 0, last: false),
                                         .part(Array(short.dropFirst(firstEnd)), index: 1, last: true)])
        let outcome = verified(file.bytes, Self.animationMode)
        #expect(info(outcome)?.partialReason?.code == .malformed)
        #expect(outcome.frames.map(\.delay) == [10, 20])
        #expect(info(verified(JXLBuilder.container([.whole(short)]).bytes, Self.animationMode))?.partialReason?.code == .malformed)
        // A bare codestream that stops: the frames so far, truncated.
        for length in [stream.fullModeEnd + 2, stream.animationEnd - 1] {
            let cut = verified(Array(stream.bytes.prefix(length)), Self.animationMode)
            #expect(info(cut)?.partialReason?.code == .truncated)
        }
    }

    @Test func framesAreCountedAgainstMaxEntries() {
        var options = Self.animationMode
        options.maxEntries = 2
        let image = JXLImage.animation([.shown(10), .shown(20), .shown(30), .shown(40, last: true)])
        let limited = verified(JXLWriter.write(image).bytes, options)
        #expect(info(limited)?.partialReason?.code == .limitExceeded)
        #expect(limited.frames.count == 2)
        // Layers and reference frames count too, as frame headers.
        let layers = JXLImage.animation([.shown(0), .shown(0), .shown(0), .shown(40, last: true)])
        #expect(info(verified(JXLWriter.write(layers).bytes, options))?.partialReason?.code == .limitExceeded)
        options.maxEntries = 4
        #expect(info(verified(JXLWriter.write(layers).bytes, options))?.frameCount == 1)
        // So do TOC entries: a frame of 3 × 2 groups has 2 + 1 + 6 entries.
        let groups = JXLImage.animation(width: 600, height: 400, [.shown(10), .shown(10, last: true)])
        #expect(info(verified(JXLWriter.write(groups).bytes, options))?.partialReason?.code == .limitExceeded)
        options.maxEntries = 9
        #expect(info(verified(JXLWriter.write(groups).bytes, options))?.frameCount == 2)
    }

    @Test func aTOCOfMoreThan65536EntriesIsRefused() {
        // libjxl's limit, whatever maxEntries says: 8192 × 8192 groups of 128 pixels.
        var options = Self.animationMode
        options.maxEntries = Int(UInt32.max)
        let image = JXLImage.animation(width: 1 << 20, height: 1 << 20, [
            JXLFrameHeader(modular: true, groupSizeShift: 0, duration: 1, tocOverride: 0),
            JXLFrameHeader(duration: 1, isLast: true, tocOverride: 0),
        ])
        #expect(info(verified(JXLWriter.write(image).bytes, options))?.partialReason?.code == .malformed)
    }

    @Test func permutedTOCsAndProfilesAreNotFollowed() {
        let image = JXLImage.animation([.shown(10), JXLFrameHeader(duration: 20, permutation: true), .shown(30, last: true)])
        let outcome = verified(JXLWriter.write(image).bytes, Self.animationMode)
        #expect(info(outcome)?.partialReason?.code == .unsupportedFeature)
        #expect(outcome.frames.map(\.delay) == [10, 20])
    }

    @Test func malformedFramesEndTheWalk() {
        let zeroCrop = JXLImage.animation([.shown(10), JXLFrameHeader(crop: (0, 0, 0, 5), duration: 20), .shown(30, last: true)])
        let cropped = verified(JXLWriter.write(zeroCrop).bytes, Self.animationMode)
        #expect(info(cropped)?.partialReason?.code == .malformed && cropped.frames.count == 1)
        // Nonzero padding bits, after the headers and in a TOC.
        var padded = JXLImage.animation([.shown(10), .shown(30, last: true)])
        padded.nonZeroPadding = true
        #expect(info(verified(JXLWriter.write(padded).bytes, Self.animationMode))?.partialReason?.code == .malformed)
        let tocPadding = JXLImage.animation([.shown(10), JXLFrameHeader(duration: 20, tocPadding: true), .shown(30, last: true)])
        #expect(info(verified(JXLWriter.write(tocPadding).bytes, Self.animationMode))?.partialReason?.code == .malformed)
        // A reference frame saved after the colour transform must cover the canvas.
        let reference = JXLImage.animation([JXLFrameHeader(type: 2, crop: (0, 0, 10, 10), saveAsReference: 1), .shown(30, last: true)])
        #expect(info(verified(JXLWriter.write(reference).bytes, Self.animationMode))?.partialReason?.code == .malformed)
        // Subsampled chroma with adaptive DC smoothing in VarDCT.
        var smoothing = JXLImage.animation([JXLFrameHeader(yCbCr: true, chroma: [1, 1, 1], duration: 5), .shown(1, last: true)])
        smoothing.xyb = false
        #expect(info(verified(JXLWriter.write(smoothing).bytes, Self.animationMode))?.partialReason?.code == .malformed)
        // An F16 infinity in the loop filter.
        let infinite = JXLImage.animation([
            JXLFrameHeader(duration: 1, loopFilter: .custom(gaborish: true, gaborishWeights: [0x7C00, 0, 0, 0, 0, 0], epfIterations: 0,
                                                           sharp: false, weight: false, sigma: false, extensions: [])),
            .shown(1, last: true),
        ])
        #expect(info(verified(JXLWriter.write(infinite).bytes, Self.animationMode))?.partialReason?.code == .malformed)
        // Passes whose downsampling does not decrease.
        let passes = JXLImage.animation([JXLFrameHeader(passes: 3, downsample: [(2, 0), (4, 1)], duration: 1), .shown(1, last: true)])
        #expect(info(verified(JXLWriter.write(passes).bytes, Self.animationMode))?.partialReason?.code == .malformed)
    }

    @Test func longDelaysKeepThirtyTwoBitTerms() {
        let exact = JXLHeaderReader.delay(ticks: 1001, numerator: 30000, denominator: 1001)
        #expect(exact.numerator == 1001 * 1001 && exact.denominator == 30000)
        // 2^32 − 1 ticks of 1024/1 s: reduced, then halved until the terms fit.
        let long = JXLHeaderReader.delay(ticks: .max, numerator: 1, denominator: 1024)
        #expect(long.numerator == .max && long.denominator == 1)
        let reduced = JXLHeaderReader.delay(ticks: 3_000_000_000, numerator: 1000, denominator: 1000)
        #expect(reduced.numerator == 3_000_000_000 && reduced.denominator == 1)
        let halved = JXLHeaderReader.delay(ticks: 4_000_000_001, numerator: 999_999_999, denominator: 3)
        let approximated: Double = Double(halved.numerator) / Double(halved.denominator)
        let exactly: Double = 4_000_000_001.0 * 3 / 999_999_999
        #expect(abs(approximated - exactly) / exactly < 1e-6)
        let (found, frames, _) = walk(.animation([.shown(Int(UInt32.max)), .shown(1, last: true)]))
        #expect(found?.frameCount == 2 && frames.first?.delay == Double(UInt32.max))
    }

    @Test func fieldsFollowInOrder() {
        // `Field.following` casts a raw value: the cases are numbered from 0 without gaps, and
        // `tocEnd`, the last, is its own.
        let last = JXLHeaderReader.Field.tocEnd.rawValue
        for raw in 0..<last {
            let field = JXLHeaderReader.Field(rawValue: raw)
            #expect(field != nil && field?.following == JXLHeaderReader.Field(rawValue: raw + 1))
        }
        #expect(JXLHeaderReader.Field(rawValue: last &+ 1) == nil && JXLHeaderReader.Field.tocEnd.following == .tocEnd)
    }

    @Test func theParserFitsItsSlot() {
        #expect(MemoryLayout<JXLParser>.size <= 256, "\(MemoryLayout<JXLParser>.size)")
        #expect(ParserSlot.fits(JXLParser.self))
    }

    // MARK: Files from cjxl

    static func cjxl(_ name: String) -> [UInt8] {
        let hex = Array(cjxlFixtures[name]!.utf8)
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    @Test func cjxlAnimations() {
        let plain = verified(Self.cjxl("gif-3x100ms"), Self.animationMode)
        #expect(info(plain)?.frameCount == 3 && info(plain)?.duration == 300 && info(plain)?.isPartial == false)
        #expect(info(plain)?.cicp == Self.sRGB && info(plain)?.hasAlpha == true)
        // Two layers of duration 0, blended into the frames after them.
        let layered = verified(Self.cjxl("gif-crops-and-zero-delays"), Self.animationMode)
        #expect(info(layered)?.frameCount == 3 && info(layered)?.duration == 180)
        #expect(layered.frames.map(\.delay) == [50, 100, 30])
        #expect(layered.frames.map(\.rectangle) == [FrameRect(x: 0, y: 0, width: 80, height: 60), FrameRect(x: 40, y: 30, width: 30, height: 20),
                                                    FrameRect(x: 10, y: 45, width: 21, height: 11)])
        // A container with a jxlp box per frame.
        let boxed = verified(Self.cjxl("gif-5x70ms-loop3-container"), Self.animationMode)
        #expect(info(boxed)?.frameCount == 5 && boxed.frames.map(\.delay) == [70, 70, 70, 70, 70])
    }

    @Test func cjxlColour() {
        let pq = info(verified(Self.cjxl("still-RGB_D65_202_Rel_PeQ")))
        #expect(pq?.cicp == CICP(colourPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 0, isFullRange: true))
        #expect(pq?.isHDR == true && pq?.hasICCProfile == false && pq?.bitDepth == 16)
        let grey = info(verified(Self.cjxl("still-Gra_D65_Rel_PeQ")))
        #expect(grey?.cicp == CICP(colourPrimaries: 2, transferCharacteristics: 16, matrixCoefficients: 2, isFullRange: true))
        #expect(grey?.isHDR == true)
        let icc = info(verified(Self.cjxl("still-png-icc-romm")))
        #expect(icc?.hasICCProfile == true && icc?.cicp == nil && icc?.isHDR == nil && icc?.isPartial == false)
        for name in Self.cjxlFixtures.keys {
            // Dimensions-only mode stops at the size, and sets nothing else.
            let size = info(verified(Self.cjxl(name), dimensionsOnly))
            #expect(size?.cicp == nil && size?.hasICCProfile == nil && size?.bitDepth == nil, "\(name)")
        }
    }

    /// With IMAGEPROBE_JXL_DIR=DIR, scans every DIR/*.jxl in full and animation modes and
    /// writes DIR/imageprobe.tsv for Tests/jxl/check.sh: name, mode, CICP, ICC flag, HDR, frame
    /// count, duration in ms, loop count, partial reason.
    @Test func groundTruthDump() throws {
        guard let directory = ProcessInfo.processInfo.environment["IMAGEPROBE_JXL_DIR"] else { return }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jxl") }.sorted()
        func text(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "-" }
        var lines = ""
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            for (mode, options) in [("full", ScanOptions()), ("animation", Self.animationMode)] {
                let found = info(ChunkingVerifier.scanWhole(bytes, options: options))
                let cicp = found?.cicp.map { "\($0.colourPrimaries)/\($0.transferCharacteristics)/\($0.matrixCoefficients)/\($0.isFullRange)" } ?? "-"
                let frames: String = found?.frameCount.map { String($0) } ?? "-"
                let duration: String = found?.duration.map { "\($0)" } ?? "-"
                let loops: String = found?.loopCount.map { String($0) } ?? "-"
                let partial: String = found?.partialReason.map { "\($0.code.name)" } ?? "-"
                let columns: [String] = [String(name.dropLast(4)), mode, cicp, text(found?.hasICCProfile), text(found?.isHDR),
                                         frames, duration, loops, partial]
                lines += columns.joined(separator: "\t") + "\n"
            }
        }
        try lines.write(toFile: directory + "/imageprobe.tsv", atomically: true, encoding: .utf8)
    }

    // MARK: Container

    @Test(arguments: [JPEGBox.Length.exact, .large, .toEnd])
    func codestreamBox(length: JPEGBox.Length) {
        let stream = Self.still(.preferred(width: 4000, height: 3000), orientation: 8)
        let file = JXLBuilder.container([.whole(stream.bytes, length: length)])
        let dimensions = verified(file.bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [4000, 3000])
        #expect(dimensions.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.sizeEnd)))
        let full = verified(file.bytes)
        #expect(info(full)?.orientation == .rotate90Anticlockwise)
        #expect(full.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.fullModeEnd)))
    }

    @Test func otherBoxesBeforeTheCodestreamAreSkipped() {
        let stream = Self.still(.preferred(width: 32, height: 48), orientation: 2)
        let exif = JPEGBox.box("Exif", [0, 0, 0, 0] + TIFFBuilder(entries: [.orientation(6)]).build())
        let pieces: [JXLBuilder.Piece] = [
            .box(JPEGBox.box("jxll", [10])),
            .box(exif),
            .box(JPEGBox.box("xml ", ascii("<x:xmpmeta/>"), length: .large)),
            .box(JPEGBox.box("brob", ascii("Exif") + [0x11, 0x22, 0x33])),
            .box(JPEGBox.box("jumb", [])),
            .box(JPEGBox.box("JXL ", [0x0D, 0x0A, 0x87, 0x0A])),
            .whole(stream.bytes),
        ]
        let file = JXLBuilder.container(pieces)
        let dimensions = verified(file.bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [32, 48])
        #expect(dimensions.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.sizeEnd)))
        // The codestream's orientation counts, not the Exif box's.
        #expect(info(verified(file.bytes))?.orientation == .mirrorHorizontal)
    }

    @Test func partsSplitAtEveryByteOfTheHeader() {
        let stream = Self.still(Size(height: 300_000, width: 5, heightSelector: 3, widthSelector: 1), orientation: 7)
        let between = JPEGBox.box("jbrd", [9, 9, 9])
        for cut in 0...stream.fullModeEnd + 1 {
            for filler in [nil, between] {
                let file = JXLBuilder.container(JXLBuilder.parts(stream.bytes, cuts: [cut], between: filler))
                let dimensions = verified(file.bytes, dimensionsOnly)
                #expect(info(dimensions)?.size == [5, 300_000], "cut at \(cut)")
                #expect(dimensions.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.sizeEnd)), "cut at \(cut)")
                let full = verified(file.bytes)
                #expect(info(full)?.orientation == .transverse, "cut at \(cut)")
                #expect(full.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.fullModeEnd)), "cut at \(cut)")
            }
        }
    }

    @Test func onePartPerByte() {
        let stream = Self.still(.preferred(width: 70_000, height: 3), orientation: 4)
        let cuts = Array(1..<stream.bytes.count)
        let file = JXLBuilder.container(JXLBuilder.parts(stream.bytes, cuts: cuts, between: JPEGBox.box("xml ", [])))
        let dimensions = verified(file.bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [70_000, 3])
        #expect(dimensions.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.sizeEnd)))
        #expect(info(verified(file.bytes))?.orientation == .mirrorVertical)
    }

    @Test func emptyAndUnboundedParts() {
        let stream = Self.still(.preferred(width: 1000, height: 1000), orientation: 5)
        let head = Array(stream.bytes.prefix(3))
        let tail = Array(stream.bytes.dropFirst(3))
        let file = JXLBuilder.container([
            .part(head, index: 0, last: false),
            .part([], index: 1, last: false),
            .part(tail, index: 2, last: true, length: .toEnd),
        ])
        #expect(info(verified(file.bytes))?.orientation == .transpose)
        #expect(info(verified(file.bytes, dimensionsOnly))?.size == [1000, 1000])
        let large = JXLBuilder.container([.part(head, index: 0, last: false, length: .large), .part(tail, index: 1, last: true, length: .large)])
        #expect(info(verified(large.bytes))?.orientation == .transpose)
    }

    @Test func codestreamEndsInsideTheHeader() {
        let stream = JXLBuilder.codestream(Size(height: 1 << 20, width: 1 << 20, heightSelector: 3, widthSelector: 3))
        let head = Array(stream.bytes.prefix(4))
        let tail = Array(stream.bytes.dropFirst(4))
        let cases: [[JXLBuilder.Piece]] = [
            [.whole(head)],  // the only codestream box is too short
            [.part(head, index: 0, last: true), .part(tail, index: 1, last: true)],  // the last part is too short
            [.part(head, index: 0, last: false), .whole(tail)],  // jxlc after jxlp
            [.whole([])],
        ]
        for pieces in cases {
            #expect(failureCode(verified(JXLBuilder.container(pieces).bytes)) == .malformed)
        }
        // A part that is not the last, then the end of the input: truncated.
        let cut = JXLBuilder.container([.part(head, index: 0, last: false)])
        #expect(failureCode(verified(cut.bytes)) == .truncated)
    }

    @Test func damagedSignatures() {
        let stream = JXLBuilder.codestream(width: 8, height: 8).bytes
        var box = JXLBuilder.container([.whole(stream)]).bytes
        box[11] = 0x0B
        #expect(failureCode(verified(box)) == .unknownFormat)
        // A signature box of 13 bytes (the sniffer accepts its size, the parser does not).
        var long = JXLBuilder.container([.whole(stream)]).bytes
        long[3] = 13
        #expect(failureCode(verified(long)) == .malformed)
        // The codestream inside the box must start with FF 0A.
        let wrongMarker: [UInt8] = [0xFF, 0x0B] + stream.dropFirst(2)
        for damaged in [wrongMarker, [0xAA, 0xAA, 0xAA, 0xAA]] {
            #expect(failureCode(verified(JXLBuilder.container([.whole(damaged)]).bytes)) == .malformed)
        }
    }

    @Test func fileTypeBox() {
        let pieces: [JXLBuilder.Piece] = [.whole(JXLBuilder.codestream(width: 8, height: 8).bytes)]
        let heads = [
            JPEGBox.fileType("jxl ", compatible: ["jxl ", "isom"]),  // more brands: fine
            JPEGBox.fileType("avif", compatible: ["jxl "]),
            JPEGBox.fileType("jxl ", compatible: []),
            JPEGBox.box("jxlc", [0, 0, 0, 0, 0, 0, 0, 0]),
        ]
        #expect(info(verified(JXLBuilder.container(pieces, head: heads[0]).bytes))?.size == [8, 8])
        for head in heads.dropFirst() {
            #expect(failureCode(verified(JXLBuilder.container(pieces, head: head).bytes)) == .malformed)
        }
        let twice = JXLBuilder.container([.box(JXLBuilder.fileType)] + pieces)
        #expect(failureCode(verified(twice.bytes)) == .malformed)
    }

    @Test func boxesTooSmallForTheirHeaders() {
        let stream = JXLBuilder.codestream(width: 8, height: 8).bytes
        for size in UInt32(2)...7 {
            let file = JXLBuilder.container([.box(JPEGBox.box("Exif", [], length: .declared(size))), .whole(stream)])
            #expect(failureCode(verified(file.bytes)) == .malformed)
        }
        for size in UInt64(0)...15 {
            let file = JXLBuilder.container([.box(JPEGBox.box("Exif", [], length: .declaredLarge(size))), .whole(stream)])
            #expect(failureCode(verified(file.bytes)) == .malformed)
        }
        // A jxlp box needs room for its 4-byte index.
        for size in UInt32(8)...11 {
            let file = JXLBuilder.container([.box(JPEGBox.box("jxlp", [0, 0, 0], length: .declared(size))), .whole(stream)])
            #expect(failureCode(verified(file.bytes)) == .malformed)
        }
        // A zero-length payload is fine for other boxes.
        let empty = JXLBuilder.container([.box(JPEGBox.box("Exif", [])), .whole(stream)])
        #expect(info(verified(empty.bytes))?.size == [8, 8])
    }

    @Test func boxRunningToTheEndBeforeTheCodestream() {
        let file = JXLBuilder.container([.box(JPEGBox.box("Exif", [1, 2, 3], length: .toEnd)), .whole(JXLBuilder.codestream(width: 8, height: 8).bytes)])
        #expect(failureCode(verified(file.bytes)) == .malformed)
    }

    @Test func hugeDeclaredLengths() {
        let stream = JXLBuilder.codestream(width: 8, height: 8).bytes
        // Skipping a box that claims 4 GiB passes the codestream: the input ends first.
        let huge = JXLBuilder.container([.box(JPEGBox.box("Exif", [1], length: .declared(0xFFFF_FFF0))), .whole(stream)])
        let outcome = verified(huge.bytes)
        #expect(failureCode(outcome) == .truncated)
        let beyond = JXLBuilder.container([.box(JPEGBox.box("xml ", [1], length: .declaredLarge(UInt64.max))), .whole(stream)])
        #expect(failureCode(verified(beyond.bytes)) == .malformed)
        // A codestream box may claim more than the file holds: the header is at its start.
        let long = JXLBuilder.container([.whole(stream, length: .declared(0xFFFF_FFFF))])
        #expect(info(verified(long.bytes))?.size == [8, 8])
        let longer = JXLBuilder.container([.whole(stream, length: .declaredLarge(1 << 62))])
        #expect(info(verified(longer.bytes))?.size == [8, 8])
    }

    @Test func boxCountIsLimited() {
        let boxes = [JXLBuilder.Piece](repeating: .box(JPEGBox.box("xml ", [])), count: 20)
        let file = JXLBuilder.container(boxes + [.whole(JXLBuilder.codestream(width: 8, height: 8).bytes)])
        var options = ScanOptions()
        options.maxEntries = 20
        #expect(failureCode(verified(file.bytes, options)) == .limitExceeded)
        options.maxEntries = 23  // signature, ftyp, 20 boxes, jxlc
        #expect(info(verified(file.bytes, options))?.size == [8, 8])
    }

    // BEGIN cjxl fixtures: generated by Tests/jxl/hex_fixtures.sh (cjxl v0.7.0, from Tests/jxl/make_animations.sh)
    static let cjxlFixtures: [String: String] = [
        // JPEG XL animation, 40x30, (possibly) lossless, 8-bit RGBA
        // Color space: RGB, D65, sRGB primaries, sRGB transfer function, rendering intent: Perceptual
        // frame: full image size, duration: 100.0 ms
        // frame: full image size, duration: 100.0 ms
        // frame: full image size, duration: 100.0 ms
        // Animation length: 0.300 seconds (looping)
        "gif-3x100ms": "ff0ae8304100161497040808a0020000ec004b122951bd800218701fc6fbb80a82200829b061630c5e36c68d31c6dd1837c68d71f700808f0d0004af0180a18208580d6e05804449eb49778e0f0808a0020000c4004b122951bd800218701fc6fbb80a82200829b0e1630cde37c68fc1d88d7b0040c82a00a0970460d9461f8186c22044423e0808a0420000dc004b122951bd800218701fc6fbb80a82200829b0e1630c1e37c68f7163dc8d7163dc03003a6b584dc0a46b219436a60a962bf4ef89a9393e",
        // JPEG XL animation, 80x60, (possibly) lossless, 8-bit RGBA
        // Color space: RGB, D65, sRGB primaries, sRGB transfer function, rendering intent: Perceptual
        // layer: full image size, duration: 0.0 ms
        // frame: 20x10 at position (5,5), duration: 50.0 ms
        // layer: 30x20 at position (40,30), duration: 0.0 ms
        // frame: 10x10 at position (60,40), duration: 100.0 ms
        // frame: 21x11 at position (10,45), duration: 30.0 ms
        // Animation length: 0.180 seconds (looping)
        "gif-crops-and-zero-delays": "ff0ad8314100161497040808800000d4012b59918282c23d4b00e7caad76090a50fb774adeab8f7877d0c17087e0496837f469128deb450fdad51f1f0fc686636ebe049747c8fe217a3d4bb3d4d7e9b10e79e8d21347cfffc55948810d1b63706e0cdaddb871638c1b83730f0090346241f739206293fa4d0d8dd635e3a810d18837a53f010e088828a000050a329105020090004b1209121838044148810d1363f034313826c689c1980330381a00700daa05ea51c2571f088840c18307143211020088004b1209121838044148810d1f6330eb63fc8ff10f0000ed1f007c39b732cf0c6a940f0888e00185020a32910a02008c004b12c582055260c3c5183c668c19832ec69831e601289cc1dff3c1e8441bf407a8723e088850a045050b32910301007c004b1209121838044148810d3331983913e7000cd00a00c40182fea43c31af0f",
        // JPEG XL file format container (ISO/IEC 18181-2)
        // JPEG XL animation, 64x48, (possibly) lossless, 8-bit RGBA
        // Color space: RGB, D65, sRGB primaries, sRGB transfer function, rendering intent: Perceptual
        // frame: full image size, duration: 70.0 ms
        // frame: full image size, duration: 70.0 ms
        // frame: full image size, duration: 70.0 ms
        // frame: full image size, duration: 70.0 ms
        // frame: full image size, duration: 70.0 ms
        // Animation length: 0.350 seconds (looping)
        "gif-5x70ms-loop3-container": "0000000c4a584c200d0a870a00000014667479706a786c20000000006a786c20000000926a786c7000000000ff0acb040158505c120808e0010000d4012b59918282c23d4b00e7caad76090a50fb774adeab8f7877d0c17087e0496837f469128deb450fdad51f1f0fc686636ebe049747c8fe217a3d4bb3d4d7e9b10e79e8d21347cfffc55948810d1b63f0b2316e8c31eec6b8316e8cbb07007cf00e008b11004c168374faab2600640ad34642f4245d7d000000806a786c70000000010808e0010000b0012b59918282c23d4b00e7caad76090a50fb774adeab8f7877d0c17087e0496837f469128deb450fdad51f1f0fc686636ebe049747c8fe217a3d4bb3d4d7e9b10e79e8d21347cfffc55948810d1b63f0be316e0cc66edc0300423b0090742e004b357430140db2c05991bdf301000000886a786c70000000020808e0010000d0012b59918282c23d4b00e7caad76090a50fb774adeab8f7877d0c17087e0496837f469128deb450fdad51f1f0fc686636ebe049747c8fe217a3d4bb3d4d7e9b10e79e8d21347cfffc55948810d1b63f0b8316e8c1be36e8c1be31e00d0f90200ef0982295883c1247e11b07c9113adb9376c1ff2010000008b6a786c70000000030808e0010000dc012b59918282c23d4b00e7caad76090a50fb774adeab8f7877d0c17087e0496837f469128deb450fdad51f1f0fc686636ebe049747c8fe217a3d4bb3d4d7e9b10e79e8d21347cfffc55948810d1b638c71638c1b83b17137c61837066363dc0300407607200b6e00c3a63662910322db386a20be0f6ed707000000796a786c70800000040808e041000094012b59918282c23d4b00e7caad76090a50fb774adeab8f7877d0c17087e0496837f469128deb450fdad51f1f0fc686636ebe049747c8fe217a3d4bb3d4d7e9b10e79e8d21347cfffc55948810d1b63306337c6606cdc030042f50210a38edab129009cee86f8",
        // JPEG XL file format container (ISO/IEC 18181-2)
        // JPEG XL image, 24x16, (possibly) lossless, 16-bit RGB
        // intensity_target: 10000.000000 nits
        // min_nits: 0.000000
        // relative_to_max_display: 0
        // linear_below: 0.000000
        // Color space: RGB, D65, Rec.2100 primaries, PQ transfer function, rendering intent: Relative
        "still-RGB_D65_202_Rel_PeQ": "0000000c4a584c200d0a870a00000014667479706a786c20000000006a786c20000000096a786c6c0a0000009b6a786c63ff0a0305fc00e4d1230e070000008008020100f8014b12091218380441488195d5e4c489316862d0c4606e37020001c4000200316d5200f0fb2f22118948fb5f44221291a6b58844242211155a8b4844229a3414918844f4ff2f221189e8ff5f442212d1efbf8844242211adfe8b4844221206155144cf5e4e73b766a01732db14217806ccbba34808834e4270462aa20a0418",
        // JPEG XL file format container (ISO/IEC 18181-2)
        // JPEG XL image, 24x16, (possibly) lossless, 16-bit Grayscale
        // intensity_target: 10000.000000 nits
        // min_nits: 0.000000
        // relative_to_max_display: 0
        // linear_below: 0.000000
        // Color space: Grayscale, D65, PQ transfer function, rendering intent: Relative
        "still-Gra_D65_Rel_PeQ": "0000000c4a584c200d0a870a00000014667479706a786c20000000006a786c20000000096a786c6c0a000000606a786c63ff0a0305fc00458f381c0000000002080201000c014b12c582055260651b83c78cc1dc5e0020804f9d47061189e8ff5f442212d1efbf884424a2df7f11894844e0ff2212918844d4662c1c694d1bcc9974cc31f3443b001d",
        // JPEG XL image, 30x20, lossy, 8-bit RGB
        // Color space: 564-byte ICC profile, CMM type: "", color space: "RGB ", rendering intent: 0
        "still-png-icc-romm": "ff0a984090c229c3808479000ce7a8085cefe775539fc4d226496b85963fe44b089a4daf5d9630599629656253d2841d437acb08587ad83516de177853ff064e191c60c0671161a02c6daa69291ee0e4ab29ed6da86c19a0e46363a3e4a11060e2e010f0c0b7e0e02b6cae6cea292a1d706c1e1998980cd45e2b839b4ed338a2cc5830a9ee4f6de5406df9bc58b802739ebcfb7733da84d33900120801000c015de5120000152aa38c1bbc9cebf9f24387c5b48deb0c6db56d6149a2c838364927704812ab20ec1c2004a0147438f32d00b85d640cf0c6262b801d0020011000a82401",
    ]
    // END cjxl fixtures
}

// MARK: - A codestream writer

/// Bits least significant first, as the codestream stores them.
struct JXLBits {
    var bytes: [UInt8] = []
    var count = 0

    mutating func write(_ value: UInt64, _ bits: Int) {
        for bit in 0..<bits {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> UInt64(bit)) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (count % 8)) }
            count += 1
        }
    }

    mutating func append(bytes data: [UInt8]) {
        precondition(count % 8 == 0)
        bytes += data
        count += data.count * 8
    }
}

/// What `JXLWriter` writes: a codestream's headers and frames, each field as libjxl's
/// `VisitFields` reads it (ISO/IEC 18181-1), all valid unless a test damages the bytes.
struct JXLImage {
    var size = JXLBuilder.Size(height: 32, width: 48)
    var metadataAllDefault = false
    var orientation = 1
    var intrinsicSize: (width: Int, height: Int)? = nil
    var preview: (width: Int, height: Int)? = nil
    /// Ticks per second as numerator / denominator, `num_loops`, `have_timecodes`.
    var animation: (numerator: Int, denominator: Int, loops: Int, timecodes: Bool)? = nil
    /// `bits_per_sample`, and the exponent bits of a float sample.
    var bitDepth = 8
    var floatExponent: Int? = nil
    var channels: [JXLChannel] = []
    var xyb = true
    var colour = JXLColourEncoding.allDefault
    /// intensity_target, min_nits, linear_below as F16 bits (relative_to_max_display false).
    var toneMapping: (UInt16, UInt16, UInt16)? = nil
    /// The sizes in bits of extensions 0, 1, ... of ImageMetadata.
    var metadataExtensions: [UInt64] = []
    /// CustomTransformData: a custom opsin matrix, and the custom upsampling weights mask.
    var customOpsin = false
    var upsamplingWeights = 0
    /// Bytes standing in for an ICC profile (only written with `.icc` colour).
    var iccStandIn: [UInt8] = [0xA5, 0x5A, 0xA5]
    /// A padding bit of 1 before the first frame (libjxl refuses it).
    var nonZeroPadding = false
    var frames: [JXLFrameHeader] = []
}

enum JXLChannel {
    /// `all_default`: an 8-bit alpha channel.
    case alpha
    /// type (0 alpha, 1 depth, 2 spot colour, 5 CFA, ...), bits, dim_shift, name.
    case custom(type: Int, bits: Int, dimShift: Int, name: String)
}

enum JXLColourEncoding {
    case allDefault
    /// `want_icc` with this colour space.
    case icc(space: Int)
    /// The enums (libjxl's values); a custom white point or custom primaries write
    /// chromaticities; `gamma` (in 1e-7) replaces the transfer function.
    case enumerated(space: Int, whitePoint: Int = 1, primaries: Int = 1, transfer: Int = 13, gamma: Int? = nil, intent: Int = 0)
}

struct JXLFrameHeader {
    var allDefault = false
    /// 0 regular, 1 DC, 2 reference only, 3 skip progressive.
    var type = 0
    var modular = false
    var flags: UInt64 = 0
    var yCbCr = false
    var chroma = [0, 0, 0]
    var upsampling = 1
    var groupSizeShift = 1
    var passes = 1
    var downsample: [(factor: Int, lastPass: Int)] = []
    var dcLevel = 1
    var crop: (x: Int, y: Int, width: Int, height: Int)? = nil
    var blendMode = 0
    var source = 0
    var duration = 0
    var timecode = 0
    var isLast = false
    var saveAsReference = 0
    var saveBefore = false
    var name = ""
    var loopFilter = JXLLoopFilter.allDefault
    var extensions: [UInt64] = []
    var permutation = false
    /// A padding bit of 1 after the permutation flag (libjxl refuses it).
    var tocPadding = false
    /// Writes this many TOC entries instead of the frame's count.
    var tocOverride: Int? = nil
    /// The size of each TOC section, and the byte its data is made of.
    var sectionSize = 3
    var sectionByte: UInt8 = 0xC3

    static func shown(_ duration: Int, last: Bool = false) -> JXLFrameHeader {
        JXLFrameHeader(duration: duration, isLast: last)
    }
}

enum JXLLoopFilter {
    case allDefault
    case custom(gaborish: Bool, gaborishWeights: [UInt16]?, epfIterations: Int, sharp: Bool, weight: Bool, sigma: Bool, extensions: [UInt64])
}

/// A written codestream and where each mode's answer ends (codestream byte counts).
struct JXLStream {
    var bytes: [UInt8]
    var sizeEnd: Int
    var fullModeEnd: Int
    /// The end of the last frame's `is_last` (animation mode's answer for an animation).
    var animationEnd: Int
    /// The TOC entry count of each frame, as the writer computed it.
    var tocEntries: [Int]
    /// Where each frame's blending info ends (0 for a frame without one).
    var blendingEnds: [Int]
}

struct JXLWriter {
    var bits = JXLBits()
    let image: JXLImage
    /// Where the last `is_last` (or all-default frame header) written ends.
    var isLastEnd = 0
    /// Where each frame header's blending info ends (0 for a frame without one).
    var blendingEnds: [Int] = []

    static let sizeDistribution = [(9, 1), (13, 1), (18, 1), (30, 1)]
    static let enumeration = [(0, 0), (0, 1), (4, 2), (6, 18)]
    static let frameSize = [(8, 0), (11, 256), (14, 2304), (30, 18688)]
    static let zeroToThree = [(0, 0), (0, 1), (0, 2), (0, 3)]
    static let powerOfTwo = [(0, 1), (0, 2), (0, 4), (0, 8)]
    static let tocEntry = [(10, 0), (14, 1024), (22, 17408), (30, 4_211_712)]

    mutating func bool(_ value: Bool) { bits.write(value ? 1 : 0, 1) }
    mutating func write(_ value: Int, _ count: Int) { bits.write(UInt64(value), count) }

    /// A U32 in the first entry that can hold `value`.
    mutating func u32(_ value: Int, _ entries: [(Int, Int)]) {
        for (selector, (count, offset)) in entries.enumerated()
        where value >= offset && (count == 0 ? value == offset : value - offset < 1 << count) {
            write(selector, 2)
            write(value - offset, count)
            return
        }
        preconditionFailure("\(value) has no entry in \(entries)")
    }

    mutating func u64(_ value: UInt64) {
        switch value {
        case 0: write(0, 2)
        case 1...16: write(1, 2); bits.write(value - 1, 4)
        case 17...272: write(2, 2); bits.write(value - 17, 8)
        default:
            write(3, 2)
            bits.write(value & 0xFFF, 12)
            var rest = value >> 12
            var shift = 12
            while true {
                if rest == 0 { bool(false); break }
                bool(true)
                if shift == 60 { bits.write(rest & 0xF, 4); break }
                bits.write(rest & 0xFF, 8)
                rest >>= 8
                shift += 8
            }
        }
    }

    mutating func f16(_ value: UInt16) { bits.write(UInt64(value), 16) }
    mutating func align() { while bits.count % 8 != 0 { bool(false) } }

    /// Codestream bytes up to and including the one holding the last bit written.
    var end: Int { 2 + (bits.count + 7) / 8 }

    static func write(_ image: JXLImage) -> JXLStream {
        var writer = JXLWriter(image: image)
        return writer.stream()
    }

    mutating func stream() -> JXLStream {
        sizeHeader(image.size)
        let sizeEnd = end
        metadata()
        let fullModeEnd = end
        var animationEnd = fullModeEnd
        var entries: [Int] = []
        if !image.metadataAllDefault {
            if image.extraFields {
                if let (intensity, minimum, below) = image.toneMapping {
                    bool(false)
                    f16(intensity)
                    f16(minimum)
                    bool(false)
                    f16(below)
                } else {
                    bool(true)
                }
            }
            extensions(image.metadataExtensions)
            if !image.customOpsin && image.upsamplingWeights == 0 {
                bool(true)
            } else {
                bool(false)
                if image.xyb {
                    bool(!image.customOpsin)
                    if image.customOpsin { for _ in 0..<16 { f16(0x3C00) } }
                }
                write(image.upsamplingWeights, 3)
                let weights = (image.upsamplingWeights & 1 != 0 ? 15 : 0) + (image.upsamplingWeights & 2 != 0 ? 55 : 0)
                    + (image.upsamplingWeights & 4 != 0 ? 210 : 0)
                for _ in 0..<weights { f16(0x2E66) }
            }
            if case .icc = image.colour { for byte in image.iccStandIn { write(Int(byte), 8) } }
            if image.nonZeroPadding { write(bits.count % 8 == 0 ? 0x80 : 1, bits.count % 8 == 0 ? 8 : 1) }
            align()
            for (index, frame) in image.frames.enumerated() {
                let preview = image.preview != nil && index == 0
                entries.append(frameHeader(frame, preview: preview))
                if frame.allDefault || ((frame.type == 0 || frame.type == 3) && frame.isLast) { animationEnd = isLastEnd }
                toc(frame, entries: entries.last!)
            }
        }
        return JXLStream(bytes: [0xFF, 0x0A] + bits.bytes, sizeEnd: sizeEnd, fullModeEnd: fullModeEnd, animationEnd: animationEnd,
                         tocEntries: entries, blendingEnds: blendingEnds)
    }

    mutating func sizeHeader(_ size: JXLBuilder.Size) {
        bool(size.small)
        if size.small {
            write(size.height / 8 - 1, 5)
        } else {
            write(size.heightSelector, 2)
            write(size.height - 1, JXLBuilder.selectorBits[size.heightSelector])
        }
        write(size.ratio, 3)
        if size.ratio == 0 {
            if size.small {
                write(size.width / 8 - 1, 5)
            } else {
                write(size.widthSelector, 2)
                write(size.width - 1, JXLBuilder.selectorBits[size.widthSelector])
            }
        }
    }

    mutating func metadata() {
        if image.metadataAllDefault {
            bool(true)
            return
        }
        bool(false)
        bool(image.extraFields)
        if image.extraFields {
            write(image.orientation - 1, 3)
            bool(image.intrinsicSize != nil)
            if let intrinsic = image.intrinsicSize {
                sizeHeader(.preferred(width: intrinsic.width, height: intrinsic.height))
            }
            bool(image.preview != nil)
            if let preview = image.preview {
                // PreviewHeader: not div8, ratio 0.
                bool(false)
                u32(preview.height, [(6, 1), (8, 65), (10, 321), (12, 1345)])
                write(0, 3)
                u32(preview.width, [(6, 1), (8, 65), (10, 321), (12, 1345)])
            }
            bool(image.animation != nil)
            if let animation = image.animation {
                u32(animation.numerator, [(0, 100), (0, 1000), (10, 1), (30, 1)])
                u32(animation.denominator, [(0, 1), (0, 1001), (8, 1), (10, 1)])
                u32(animation.loops, [(0, 0), (3, 0), (16, 0), (32, 0)])
                bool(animation.timecodes)
            }
        }
        bitDepth(image.bitDepth, exponent: image.floatExponent)
        bool(true)  // modular_16_bit_buffer_sufficient
        u32(image.channels.count, [(0, 0), (0, 1), (4, 2), (12, 1)])
        for channel in image.channels {
            switch channel {
            case .alpha:
                bool(true)
            case .custom(let type, let bits, let dimShift, let name):
                bool(false)
                u32(type, Self.enumeration)
                bitDepth(bits, exponent: nil)
                u32(dimShift, [(0, 0), (0, 3), (0, 4), (3, 1)])
                u32(name.utf8.count, [(0, 0), (4, 0), (5, 16), (10, 48)])
                for byte in name.utf8 { write(Int(byte), 8) }
                if type == 0 { bool(false) }
                if type == 2 { for _ in 0..<4 { f16(0x3C00) } }
                if type == 5 { u32(1, [(0, 1), (2, 0), (4, 3), (8, 19)]) }
            }
        }
        bool(image.xyb)
        colour(image.colour)
    }

    mutating func bitDepth(_ bits: Int, exponent: Int?) {
        bool(exponent != nil)
        if let exponent {
            u32(bits, [(0, 32), (0, 16), (0, 24), (6, 1)])
            write(exponent - 1, 4)
        } else {
            u32(bits, [(0, 8), (0, 10), (0, 12), (6, 1)])
        }
    }

    mutating func colour(_ colour: JXLColourEncoding) {
        switch colour {
        case .allDefault:
            bool(true)
        case .icc(let space):
            bool(false)
            bool(true)
            u32(space, Self.enumeration)
        case .enumerated(let space, let whitePoint, let primaries, let transfer, let gamma, let intent):
            bool(false)
            bool(false)
            u32(space, Self.enumeration)
            if space != 2 {
                u32(whitePoint, Self.enumeration)
                if whitePoint == 2 { customXY([312_700, 329_000]) }
                if space != 1 {
                    u32(primaries, Self.enumeration)
                    if primaries == 2 { customXY([640_000, 330_000, 300_000, 600_000, 150_000, 60_000]) }
                }
                bool(gamma != nil)
                if let gamma { write(gamma, 24) } else { u32(transfer, Self.enumeration) }
            }
            u32(intent, Self.enumeration)
        }
    }

    mutating func customXY(_ values: [Int]) {
        for value in values {
            u32(value >= 0 ? 2 * value : -2 * value - 1, [(19, 0), (19, 0x8_0000), (20, 0x10_0000), (21, 0x20_0000)])
        }
    }

    mutating func extensions(_ sizes: [UInt64]) {
        u64(sizes.isEmpty ? 0 : (1 << UInt64(sizes.count)) - 1)
        for size in sizes { u64(size) }
        for size in sizes { for _ in 0..<size { bool(true) } }
    }

    /// Writes a frame header; returns its TOC entry count.
    mutating func frameHeader(_ frame: JXLFrameHeader, preview: Bool) -> Int {
        let (defaultWidth, defaultHeight) = preview ? image.preview! : (image.width, image.height)
        blendingEnds.append(0)
        if frame.allDefault {
            bool(true)
            isLastEnd = end
            return Self.tocEntries(width: defaultWidth, height: defaultHeight, frame: frame)
        }
        let showable = frame.type == 0 || frame.type == 3
        bool(false)
        u32(frame.type, Self.zeroToThree)
        bool(frame.modular)
        u64(frame.flags)
        if !image.xyb { bool(frame.yCbCr) }
        let useDCFrame = frame.flags & 32 != 0
        if frame.yCbCr && !useDCFrame { for mode in frame.chroma { write(mode, 2) } }
        if !useDCFrame {
            u32(frame.upsampling, Self.powerOfTwo)
            // libjxl's rule: each channel's factor, times 2^dim_shift, at least the frame's and at most 8.
            for channel in image.channels {
                let shift: Int
                if case .custom(_, _, let dimShift, _) = channel { shift = dimShift } else { shift = 0 }
                u32(max(1, frame.upsampling >> shift), Self.powerOfTwo)
            }
        }
        if frame.modular { write(frame.groupSizeShift, 2) }
        if !frame.modular && image.xyb { write(3, 3); write(2, 3) }
        if frame.type != 2 {
            u32(frame.passes, [(0, 1), (0, 2), (0, 3), (3, 4)])
            if frame.passes != 1 {
                u32(frame.downsample.count, [(0, 0), (0, 1), (0, 2), (1, 3)])
                for _ in 0..<frame.passes - 1 { write(0, 2) }
                for step in frame.downsample { u32(step.factor, Self.powerOfTwo) }
                for step in frame.downsample { u32(step.lastPass, [(0, 0), (0, 1), (0, 2), (3, 0)]) }
            }
        }
        if frame.type == 1 { u32(frame.dcLevel, [(0, 1), (0, 2), (0, 3), (0, 4)]) }
        var partial = false
        if frame.type != 1 {
            bool(frame.crop != nil)
            if let crop = frame.crop {
                if showable {
                    u32(crop.x >= 0 ? 2 * crop.x : -2 * crop.x - 1, Self.frameSize)
                    u32(crop.y >= 0 ? 2 * crop.y : -2 * crop.y - 1, Self.frameSize)
                    partial = crop.x > 0 || crop.y > 0 || crop.width + crop.x < defaultWidth || crop.height + crop.y < defaultHeight
                }
                u32(crop.width, Self.frameSize)
                u32(crop.height, Self.frameSize)
            }
        }
        if showable {
            for mode in [frame.blendMode] + image.channels.map({ _ in 0 }) {
                u32(mode, [(0, 0), (0, 1), (0, 2), (2, 3)])
                let alpha = !image.channels.isEmpty && (mode == 2 || mode == 3)
                if alpha { u32(0, [(0, 0), (0, 1), (0, 2), (3, 3)]) }
                if alpha || mode == 4 { bool(false) }
                if mode != 0 || partial { u32(frame.source, Self.zeroToThree) }
            }
            blendingEnds[blendingEnds.count - 1] = end
            if let animation = image.animation {
                u32(frame.duration, [(0, 0), (0, 1), (8, 0), (32, 0)])
                if animation.timecodes { write(frame.timecode, 32) }
            }
            bool(frame.isLast)
            isLastEnd = end
        }
        let isLast = showable && frame.isLast
        if frame.type != 1 && !isLast { u32(frame.saveAsReference, Self.zeroToThree) }
        if frame.type != 1 {
            let canBeReferenced = !isLast && (frame.duration == 0 || frame.saveAsReference != 0)
            if (canBeReferenced && frame.blendMode == 0 && !partial && showable) || frame.type == 2 { bool(frame.saveBefore) }
        }
        u32(frame.name.utf8.count, [(0, 0), (4, 0), (5, 16), (10, 48)])
        for byte in frame.name.utf8 { write(Int(byte), 8) }
        switch frame.loopFilter {
        case .allDefault:
            bool(true)
        case .custom(let gaborish, let weights, let iterations, let sharp, let weight, let sigma, let extensions):
            bool(false)
            bool(gaborish)
            if gaborish {
                bool(weights != nil)
                for value in weights ?? [] { f16(value) }
            }
            write(iterations, 2)
            if iterations > 0 {
                if !frame.modular {
                    bool(sharp)
                    if sharp { for _ in 0..<8 { f16(0x3800) } }
                }
                bool(weight)
                if weight { for _ in 0..<5 { f16(0x4500) } }
                bool(sigma)
                if sigma { for _ in 0..<(frame.modular ? 3 : 4) { f16(0x3A00) } }
                if frame.modular { f16(0x3C00) }
            }
            self.extensions(extensions)
        }
        extensions(frame.extensions)
        return Self.tocEntries(width: frame.crop?.width ?? defaultWidth, height: frame.crop?.height ?? defaultHeight, frame: frame)
    }

    /// The TOC and the frame's sections.
    mutating func toc(_ frame: JXLFrameHeader, entries: Int) {
        bool(frame.permutation)
        if frame.permutation { write(0x5A5A, 16) }
        if frame.tocPadding { bool(true) }
        align()
        let entries = frame.tocOverride ?? entries
        for _ in 0..<entries { u32(frame.sectionSize, Self.tocEntry) }
        align()
        bits.append(bytes: [UInt8](repeating: frame.sectionByte, count: entries * frame.sectionSize))
    }

    /// libjxl's NumTocEntries over FrameDimensions, written out again for the tests.
    static func tocEntries(width: Int, height: Int, frame: JXLFrameHeader) -> Int {
        func up(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
        let dc = frame.type == 1 ? frame.dcLevel : 0
        let upsampling = frame.allDefault || frame.flags & 32 != 0 ? 1 : frame.upsampling
        let x = up(up(width, 1 << (3 * dc)), upsampling)
        let y = up(up(height, 1 << (3 * dc)), upsampling)
        let group = 128 << (frame.modular && !frame.allDefault ? frame.groupSizeShift : 1)
        let chroma = frame.yCbCr && frame.flags & 32 == 0 ? frame.chroma : [0, 0, 0]
        let h = chroma.contains { $0 == 1 || $0 == 2 } ? 1 : 0
        let v = chroma.contains { $0 == 1 || $0 == 3 } ? 1 : 0
        let blocksX = up(x, 8 << h) << h
        let blocksY = up(y, 8 << v) << v
        let groups = up(x, group) * up(y, group)
        let dcGroups = up(blocksX, group) * up(blocksY, group)
        let passes = frame.type == 2 || frame.allDefault ? 1 : frame.passes
        return groups == 1 && passes == 1 ? 1 : 2 + dcGroups + groups * passes
    }
}

extension JXLImage {
    var extraFields: Bool {
        orientation != 1 || intrinsicSize != nil || preview != nil || animation != nil || toneMapping != nil
    }

    var width: Int {
        size.ratio == 0 ? size.width : size.height * JXLBuilder.ratios[size.ratio - 1].numerator / JXLBuilder.ratios[size.ratio - 1].denominator
    }

    var height: Int { size.height }

    /// An image of `width` × `height` coded as an encoder would.
    init(width: Int, height: Int) {
        size = .preferred(width: width, height: height)
    }

    /// An animation at `ticks` per second with these frames.
    static func animation(width: Int = 48, height: Int = 32, ticks: Int = 1000, loops: Int = 0, _ frames: [JXLFrameHeader]) -> JXLImage {
        var image = JXLImage(width: width, height: height)
        image.animation = (ticks, 1, loops, false)
        image.frames = frames
        return image
    }
}
