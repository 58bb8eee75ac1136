import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct ICNSTests {
    /// Each icon type and the pixel size it stands for (Apple Icon Image format; the @2x
    /// types at twice their point size).
    static let iconTypes: [(type: String, width: Int, height: Int)] = [
        ("ICON", 32, 32), ("ICN#", 32, 32), ("icm#", 16, 12), ("icm4", 16, 12), ("icm8", 16, 12),
        ("ics#", 16, 16), ("ics4", 16, 16), ("ics8", 16, 16), ("is32", 16, 16), ("s8mk", 16, 16),
        ("icl4", 32, 32), ("icl8", 32, 32), ("il32", 32, 32), ("l8mk", 32, 32),
        ("ich#", 48, 48), ("ich4", 48, 48), ("ich8", 48, 48), ("ih32", 48, 48), ("h8mk", 48, 48),
        ("it32", 128, 128), ("t8mk", 128, 128), ("icp4", 16, 16), ("icp5", 32, 32), ("icp6", 64, 64),
        ("ic07", 128, 128), ("ic08", 256, 256), ("ic09", 512, 512), ("ic10", 1024, 1024),
        ("ic11", 32, 32), ("ic12", 64, 64), ("ic13", 256, 256), ("ic14", 512, 512),
        ("ic04", 16, 16), ("ic05", 32, 32), ("icsb", 18, 18), ("icsB", 36, 36), ("sb24", 24, 24), ("SB24", 48, 48),
    ]

    static let masks: Set<String> = ["s8mk", "l8mk", "h8mk", "t8mk"]

    @Test(arguments: iconTypes.map(\.type))
    func eachTypeAloneGivesItsPixelSize(type: String) throws {
        let expected = try #require(Self.iconTypes.first { $0.type == type })
        let bytes = ICNSBuilder.family(ICNSBuilder.icon(type))
        let outcome = verified(bytes)
        let found = info(outcome)
        #expect(found?.format == .icns)
        #expect(found?.size == [expected.width, expected.height])
        #expect(found?.frameCount == (Self.masks.contains(type) ? 0 : 1))
        #expect(outcome.bytesConsumed == 16)  // family header and the only element's header
        #expect(info(verified(bytes, dimensionsOnly))?.frameCount == nil)
    }

    @Test func theLargestOfManyElementTypesIsReported() {
        let elements: [[UInt8]] = [
            ICNSBuilder.element("TOC ", [0x69, 0x73, 0x33, 0x32, 0, 0, 0, 20]),
            ICNSBuilder.icon("is32"), ICNSBuilder.icon("s8mk"), ICNSBuilder.icon("il32"), ICNSBuilder.icon("l8mk"),
            ICNSBuilder.icon("ic13", dataLength: 40), ICNSBuilder.icon("ic07"), ICNSBuilder.icon("zzzz", dataLength: 100),
            ICNSBuilder.element("icnV", [0x42, 0x10, 0, 0]), ICNSBuilder.element("name", ascii("icon")),
            ICNSBuilder.element("info", ascii("<plist/>")), ICNSBuilder.icon("ic11"),
        ]
        let bytes = ICNSBuilder.family(elements.flatMap { $0 })
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            let found = info(outcome)
            #expect(found?.size == [256, 256])  // ic13: 128 points at @2x
            #expect(found?.isPartial == false)
            // The whole family is walked: the answer comes with the last element's header.
            #expect(outcome.bytesConsumed == UInt64(bytes.count - elements.last!.count + 8))
        }
        // is32, il32, ic13, ic07, ic11: the masks and the other elements are not images.
        #expect(info(verified(bytes))?.frameCount == 5)
    }

    @Test func theFirstOfEqualSizesCounts() {
        let bytes = ICNSBuilder.family(ICNSBuilder.icon("icm8") + ICNSBuilder.icon("ics8") + ICNSBuilder.icon("is32"))
        #expect(info(verified(bytes))?.size == [16, 16])  // 16×16 beats 16×12
    }

    @Test func a1024IconEndsTheSearchInDimensionsOnlyMode() {
        let before = ICNSBuilder.icon("ic08") + ICNSBuilder.icon("ic09")
        let bytes = ICNSBuilder.family(before + ICNSBuilder.icon("ic10", dataLength: 300) + ICNSBuilder.icon("ic14"))
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [1024, 1024])
        #expect(outcome.bytesConsumed == UInt64(8 + before.count + 8))
        // Full mode counts every icon, to the end.
        let full = verified(bytes)
        #expect(info(full)?.frameCount == 4)
        #expect(full.bytesConsumed == UInt64(bytes.count - ICNSBuilder.icon("ic14").count + 8))
        // Cut after the 1024 icon's header: the size is certain, the count is not.
        let cut = Array(bytes[0..<(8 + before.count + 20)])
        let partial = info(verified(cut))
        #expect(partial?.size == [1024, 1024])
        #expect(partial?.isPartial == true)
        #expect(partial?.frameCount == nil)
        // Cut before it: the size is not known.
        #expect(failureCode(verified(Array(bytes[0..<(8 + before.count + 4)]))) == .truncated)
    }

    @Test func elementsWithoutDataAreNotIcons() {
        let empty = ICNSBuilder.element("ic10", []) + ICNSBuilder.icon("il32")
        let found = info(verified(ICNSBuilder.family(empty)))
        #expect(found?.size == [32, 32])
        #expect(found?.frameCount == 1)
        #expect(failureCode(verified(ICNSBuilder.family(ICNSBuilder.element("ic08", [])))) == .unsupportedFeature)
    }

    @Test func onlyUnknownElements() {
        let bytes = ICNSBuilder.family(ICNSBuilder.icon("zzzz") + ICNSBuilder.element("TOC ", []) + ICNSBuilder.icon("ic99"))
        #expect(failureCode(verified(bytes)) == .unsupportedFeature)
    }

    @Test func theDeclaredTotalLengthEndsTheFamily() {
        // Bytes after the declared end are not looked at.
        let first = ICNSBuilder.icon("il32")
        let bytes = ICNSBuilder.family(first + ICNSBuilder.icon("ic10"), declaredLength: 8 + first.count)
        let outcome = verified(bytes)
        #expect(info(outcome)?.size == [32, 32])
        #expect(outcome.bytesConsumed == 16)
    }

    @Test func malformedLengths() {
        let icon = ICNSBuilder.icon("il32")
        for length in [0, 1, 7] {
            let bytes = ICNSBuilder.family(icon + ICNSBuilder.element("ic07", declaredLength: length, [1, 2, 3, 4, 5, 6, 7, 8]))
            #expect(failureCode(verified(bytes)) == .malformed, "element length \(length)")
        }
        // An element longer than the family.
        let oversized = ICNSBuilder.family(icon + ICNSBuilder.element("ic07", declaredLength: 0x7FFF_FFFF, [1, 2, 3]))
        #expect(failureCode(verified(oversized)) == .malformed)
        let justOver = ICNSBuilder.family(icon + ICNSBuilder.element("ic07", declaredLength: 12, [1, 2, 3]))
        #expect(failureCode(verified(justOver)) == .malformed)
        // A declared total that leaves 1...7 bytes after the last element.
        for extra in 1...7 {
            let bytes = ICNSBuilder.family(icon + [UInt8](repeating: 0, count: extra))
            #expect(failureCode(verified(bytes)) == .malformed, "\(extra) trailing bytes")
        }
        for total in [0, 1, 8] {
            #expect(failureCode(verified(ICNSBuilder.family(icon, declaredLength: total))) == .malformed, "total \(total)")
        }
    }

    @Test func hugeDeclaredLengthsAreSkippedByCounting() {
        // A family declaring 4 GiB whose second element claims nearly all of it: the input ends first.
        let element = ICNSBuilder.element("ic07", declaredLength: 0xFFFF_0000, [1, 2, 3, 4])
        let bytes = ICNSBuilder.family(ICNSBuilder.icon("il32") + element, declaredLength: 0xFFFF_FFFF)
        let outcome = verified(bytes)
        #expect(failureCode(outcome) == .truncated)
        var scanner = HeaderScanner()
        _ = scanner.feed(bytes)
        #expect(scanner.pendingSkip == 0xFFFF_0000 - 8 - 4)
    }

    @Test func elementCountLimit() {
        var options = ScanOptions()
        options.maxEntries = 3
        let three = ICNSBuilder.icon("is32") + ICNSBuilder.icon("il32") + ICNSBuilder.icon("ih32")
        #expect(info(verified(ICNSBuilder.family(three), options))?.size == [48, 48])
        let four = ICNSBuilder.family(three + ICNSBuilder.icon("it32"))
        #expect(failureCode(verified(four, options)) == .limitExceeded)
        // Once a 1024 icon has settled the size, the limit only ends the count.
        let settled = ICNSBuilder.family(ICNSBuilder.icon("ic10") + three + ICNSBuilder.icon("it32"))
        let found = info(verified(settled, options))
        #expect(found?.size == [1024, 1024])
        #expect(found?.isPartial == true)
    }

    @Test func dimensionLimits() {
        var options = ScanOptions()
        options.maxWidth = 255
        let bytes = ICNSBuilder.family(ICNSBuilder.icon("ic07") + ICNSBuilder.icon("ic08"))
        #expect(failureCode(verified(bytes, options)) == .limitExceeded)
        options.maxWidth = 256
        #expect(info(verified(bytes, options))?.size == [256, 256])
    }

    @Test func damagedMagic() {
        var bytes = ICNSBuilder.family(ICNSBuilder.icon("ic07"))
        bytes[3] = 0x4E  // "icnN"
        #expect(failureCode(verified(bytes)) == .unknownFormat)
    }

    @Test func signatureFollowedByRandomBytes() {
        var random = SeededRandom(seed: 0x1C45)
        for length in [0, 1, 4, 11, 12, 60, 400] {
            for _ in 0..<8 {
                let bytes = ascii("icns") + random.bytes(length)
                verified(bytes)
                verified(bytes, dimensionsOnly)
            }
        }
        // A plausible total length, then random elements.
        for _ in 0..<16 {
            let body = random.bytes(200)
            verified(ICNSBuilder.family(body))
        }
    }
}
