import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct RadianceTests {
    @Test func standardPicture() {
        let image = RadianceBuilder.image(width: 100, height: 67)
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.format == .hdr)
        #expect(info(quick)?.size == [100, 67])
        #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
        let full = verified(image.bytes)
        #expect(info(full)?.size == [100, 67])
        #expect(info(full)?.orientation == nil)  // -Y +X is upright: nothing to invent
        #expect(info(full)?.bitDepth == 32)
        #expect(info(full)?.hasAlpha == false)
        #expect(full.bytesConsumed == UInt64(image.headerEnd))
    }

    /// The eight resolution strings: the stored raster is `firstCount` scanlines of
    /// `secondCount` pixels, and the orientation turns it into Radiance's picture (origin at
    /// the lower left, X to the right, Y up).
    @Test(arguments: [
        ("-Y", "+X", 0), ("-Y", "-X", 2), ("+Y", "-X", 3), ("+Y", "+X", 4),
        ("+X", "-Y", 5), ("-X", "-Y", 6), ("-X", "+Y", 7), ("+X", "+Y", 8),
    ])
    func everyScanlineOrder(first: String, second: String, orientation: Int) {
        let image = RadianceBuilder.image(first: first, firstCount: "30", second: second, secondCount: "20")
        let full = info(verified(image.bytes))
        #expect(full?.size == [20, 30])
        #expect(full?.orientation?.rawValue == (orientation == 0 ? nil : UInt8(orientation)))
        // X-first strings store the picture's columns as scanlines.
        let xFirst = first.hasSuffix("X")
        #expect(full?.displayWidth == (xFirst ? 30 : 20))
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.size == [20, 30])
        #expect(info(quick)?.orientation == nil)
        #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
    }

    @Test(arguments: [" ", "  ", "\t", "       "])
    func paddedResolutionString(separator: String) {
        // Radiance's own writer pads each number to eight columns: "-Y       67 +X      100".
        let image = RadianceBuilder.image(firstCount: "67", secondCount: "100", separator: separator)
        #expect(info(verified(image.bytes))?.size == [100, 67])
    }

    @Test func headerVariants() {
        let plain = RadianceBuilder.image(header: [], firstCount: "5", secondCount: "6")
        #expect(info(verified(plain.bytes))?.bitDepth == nil)  // no FORMAT line: nothing stated
        let busy = RadianceBuilder.image(
            program: "RGBE",
            header: ["# made by hand", "rpict -vf view.vf -x 640 -y 480 scene.oct", "FORMAT=32-bit_rle_xyze",
                     "FORMAT =no", "EXPOSURE=2.5", "PRIMARIES=0.640 0.330 0.290 0.600 0.150 0.060 0.333 0.333", "F"],
            firstCount: "480", secondCount: "640")
        #expect(info(verified(busy.bytes))?.size == [640, 480])
        // Radiance reads the numbers with atoi, so they may touch their axis letter.
        let touching = ascii("#?RADIANCE\n\n-Y67 +X100\n")
        #expect(info(verified(touching))?.size == [100, 67])
        let windows = RadianceBuilder.image(firstCount: "2", secondCount: "3", newline: "\r\n")
        #expect(info(verified(windows.bytes))?.size == [3, 2])
    }

    @Test func errors() {
        func hdr(_ program: String = "RADIANCE", header: [String] = [], resolution: String) -> [UInt8] {
            ascii("#?" + program + "\n" + header.map { $0 + "\n" }.joined() + "\n" + resolution + "\n")
        }
        for program in ["RADIANCEX", "FOO", "", "RGBE2"] {
            #expect(failureCode(verified(hdr(program, resolution: "-Y 1 +X 1"))) == .unknownFormat, "\(program)")
        }
        #expect(failureCode(verified(hdr(header: ["FORMAT=Radiance_octree"], resolution: "-Y 1 +X 1"))) == .unsupportedFeature)
        #expect(failureCode(verified(hdr(header: ["FORMAT=float"], resolution: "-Y 1 +X 1"))) == .unsupportedFeature)
        let malformed = [
            "Y 67 +X 100", "-Y 67 X 100", "-Y 67 +Y 100", "-Z 67 +X 100", "-Y 0 +X 100", "-Y 67 +X 0",
            "-Y 2147483648 +X 1", "-Y 67", "-Y 67 +X 100x", "-Y 67 +X", " -Y 67 +X 100", "-Y 6.5 +X 100",
        ]
        for resolution in malformed {
            #expect(failureCode(verified(hdr(resolution: resolution))) == .malformed, "\(resolution)")
        }
    }

    @Test func limitsAndNoise() {
        let long = RadianceBuilder.image(header: ["# " + String(repeating: "v", count: 8200)], firstCount: "1", secondCount: "1")
        #expect(failureCode(verifiedLong(long.bytes)) == .limitExceeded)
        var small = ScanOptions()
        small.maxHeight = 66
        #expect(failureCode(verified(RadianceBuilder.image(width: 100, height: 67).bytes, small)) == .limitExceeded)

        for seed in UInt64(1)...8 {
            var random = SeededRandom(seed: seed)
            let noise = random.bytes(200)
            #expect(failureCode(verified(ascii("#?X") + noise)) == .unknownFormat)
            // Noise as the resolution string.
            #expect(failureCode(verified(ascii("#?RADIANCE\n\n") + [0x00] + noise)) == .malformed)
            // Noise as header lines: never a size.
            #expect(failureCode(verified(ascii("#?RADIANCE\n") + noise)) != nil)
        }
        #expect(failureCode(verified(ascii("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 67 +X 10"))) == .truncated)
    }
}
