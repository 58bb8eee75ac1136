import ImageProbe
import ImageProbeFixtures
import Testing

/// SPEC.md §3, "Containers": with `inputLength` known, a box or chunk that claims to run past
/// the end of the input is malformed; without it, the answer stands.
@Suite struct ContainerRuleTests {
    static func knowingTheLength(_ bytes: [UInt8], _ mode: ScanOptions.Mode = .full) -> ScanOptions {
        var options = ScanOptions(mode: mode)
        options.inputLength = UInt64(bytes.count)
        return options
    }

    /// The input's answer without its length, and `malformed` with it, in both modes.
    func overrunIsMalformed(_ bytes: [UInt8], _ format: ImageFormat, size: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
        for mode in [ScanOptions.Mode.full, .dimensionsOnly] {
            let streamed = verified(bytes, ScanOptions(mode: mode), sourceLocation: sourceLocation)
            #expect(info(streamed, sourceLocation: sourceLocation)?.size == size, sourceLocation: sourceLocation)
            let known = verified(bytes, Self.knowingTheLength(bytes, mode), sourceLocation: sourceLocation)
            guard case .unsupported(let failure) = known.status else {
                Issue.record("expected malformed, got \(known)", sourceLocation: sourceLocation)
                continue
            }
            #expect(failure.code == .malformed, sourceLocation: sourceLocation)
            #expect(failure.format == format, sourceLocation: sourceLocation)
            #expect(failure.message.description == "box or chunk runs past the end of the input", sourceLocation: sourceLocation)
        }
    }

    @Test func heifMetaClaimingFourGigabytes() {
        // As in the issue's file: a meta box declaring 4,294,967,282 bytes in a small file.
        let meta = Box.meta(primary: 1, items: [Box.Item(id: 1, type: "hvc1", properties: [1])], properties: [.ispe(width: 64, height: 48)])
        let ftyp = Box.ftyp(major: "heic", compatible: ["mif1", "heic"])
        var bytes = Box.file(major: "heic", compatible: ["mif1", "heic"], meta: meta, after: Box.box("mdat", [UInt8](repeating: 1, count: 40)))
        bytes.replaceSubrange(ftyp.count..<ftyp.count + 4, with: [0xFF, 0xFF, 0xFF, 0xF2])
        overrunIsMalformed(bytes, .heif, size: [64, 48])
        // A box that fits the input, and an mdat after meta that doesn't, change nothing: the
        // answer comes before the mdat.
        let fits = Box.file(major: "heic", compatible: ["mif1"], meta: meta, after: [0x7F, 0xFF, 0xFF, 0xFF] + ascii("mdat") + [1, 2])
        #expect(info(verified(fits, Self.knowingTheLength(fits)))?.size == [64, 48])
        // ftyp itself.
        var longType = Box.file(major: "heic", compatible: ["mif1"], meta: meta)
        longType[3] = 0xF0
        #expect(failureCode(verified(longType, Self.knowingTheLength(longType))) == .malformed)
    }

    @Test func jpeg2000Boxes() {
        let file = JPEG2000Builder.jp2(width: 30, height: 20, headerLength: .declared(0x7FFF_0000))
        overrunIsMalformed(file.bytes, .jp2, size: [30, 20])
        let large = JPEG2000Builder.jp2(width: 30, height: 20, before: [JPEGBox.box("xml ", [1, 2], length: .declaredLarge(UInt64.max - 8))])
        #expect(failureCode(verified(large.bytes, Self.knowingTheLength(large.bytes))) == .malformed)
    }

    @Test func jpegXLBoxes() {
        let codestream = JXLBuilder.codestream(width: 100, height: 50).bytes
        let file = JXLBuilder.container([.whole(codestream, length: .declared(UInt32(codestream.count + 8 + 1000)))])
        overrunIsMalformed(file.bytes, .jxl, size: [100, 50])
        let parts = JXLBuilder.container(JXLBuilder.parts(codestream, cuts: [3]) + [.box(JPEGBox.box("Exif", [], length: .declared(5000)))])
        #expect(info(verified(parts.bytes, Self.knowingTheLength(parts.bytes)))?.size == [100, 50])
    }

    @Test func riffChunks() {
        // The RIFF size, and the first chunk's.
        var riff = WebPBuilder.lossy(width: 550, height: 368)
        riff[4] = 0xF0
        overrunIsMalformed(riff, .webp, size: [550, 368])
        var chunk = WebPBuilder.lossless(width: 20, height: 10, alpha: false)
        chunk[17] = 0x10
        overrunIsMalformed(chunk, .webp, size: [20, 10])
        // Walking to EXIF after the size: a chunk past the end ends with a partial answer.
        let walked = WebPBuilder.extended(width: 40, height: 30, flags: WebPBuilder.flagEXIF,
                                          chunks: WebPBuilder.lossyFrame(width: 40, height: 30) + [0x41, 0x4C, 0x50, 0x48, 0xFF, 0, 0, 0])
        let partial = info(verified(walked, Self.knowingTheLength(walked)))
        #expect(partial?.size == [40, 30])
        #expect(partial?.partialReason?.code == .malformed)
    }

    @Test func iffAndIconFamilies() {
        let form = IFFBuilder.form("ILBM", [IFFBuilder.bitmapHeader(width: 8, height: 6)], declaredLength: 5000)
        overrunIsMalformed(form, .ilbm, size: [8, 6])
        let icns = ICNSBuilder.family(ICNSBuilder.icon("ic10"), declaredLength: 70_000)
        for mode in [ScanOptions.Mode.full, .dimensionsOnly] {
            #expect(failureCode(verified(icns, Self.knowingTheLength(icns, mode))) == .malformed)
        }
        #expect(info(verified(icns, dimensionsOnly))?.size == [1024, 1024])
    }
}

/// Inputs that match no signature say so; the TGA fallback speaks only of inputs that looked
/// like a TGA header.
@Suite struct NoSignatureTests {
    func message(_ bytes: [UInt8]) -> String? {
        guard case .unsupported(let failure) = verified(bytes).status else { return nil }
        #expect(failure.code == .unknownFormat)
        #expect(failure.format == nil)
        return failure.message.description
    }

    @Test func noSignatureSaysSo() {
        var random = SeededRandom(seed: 0x5160)
        for _ in 0..<200 {
            var bytes = random.bytes(40)
            // No image type TGA knows, so nothing here looks like a TGA header.
            if [1, 2, 3, 9, 10, 11].contains(bytes[2]) { bytes[2] = 0x50 }
            guard case .unsupported(let failure) = ChunkingVerifier.scanWhole(bytes).status, failure.code == .unknownFormat,
                  failure.format == nil else { continue }
            #expect(failure.message.description.hasPrefix("not a TGA") == false, "\(bytes)")
        }
        #expect(message(ascii("hello, world")) == "no known image signature")
        // PVRTC data in a legacy PVR header without its tag, and other TGA-like starts with no image type.
        #expect(message([0x34, 0, 0, 0] + [UInt8](repeating: 0x20, count: 60)) == "no known image signature")
        #expect(message([0x00, 0x01, 0x00] + [UInt8](repeating: 0, count: 30)) == "no known image signature")
        // A TGA header with a known image type but a bad depth did look like a TGA.
        var header = TGABuilder.Header(width: 4, height: 4)
        header.depth = 7
        #expect(message(TGABuilder.file(header))?.hasPrefix("not a TGA") == true)
    }
}

/// SPEC.md §3.15: the PCX encoding byte.
@Suite struct PCXEncodingTests {
    @Test(arguments: [0, 2, 3, 4, 5])
    func anyEncodingIsReadAsReadersDo(version: Int) {
        // Pillow never reads the byte; ImageMagick reads 0 as raw and anything else as RLE.
        for encoding in [0, 1, 2, 7, 0x20, 0xFF] {
            let bytes = PCXBuilder.file(version: version, encoding: encoding, bitsPerPixel: 1, xMin: 0, yMin: 0x2020, xMax: 0, yMax: 0x2020)
            let routedToTGA = version == 0 && [2, 3, 10, 11].contains(encoding)
            let outcome = verified(bytes, dimensionsOnly)
            if routedToTGA {
                #expect(failureCode(outcome) == .unknownFormat)
            } else {
                #expect(info(outcome)?.format == .pcx, "version \(version), encoding \(encoding)")
                #expect(info(outcome)?.size == [1, 1])
                #expect(outcome.bytesConsumed == UInt64(PCXBuilder.answerEnd))
            }
        }
    }

    @Test func aTGAWithATenByteIDStillWins() {
        for imageType in [2, 3, 10, 11] {
            var header = TGABuilder.Header(width: 33, height: 44)
            header.idLength = 10
            header.imageType = imageType
            header.depth = imageType & 7 == 3 ? 8 : 24
            let outcome = verified(TGABuilder.file(header), dimensionsOnly)
            #expect(info(outcome)?.format == .tga)
            #expect(info(outcome)?.size == [33, 44])
        }
    }
}
