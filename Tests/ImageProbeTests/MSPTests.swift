import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct MSPTests {
    @Test(arguments: [false, true])
    func bothVersions(version2: Bool) {
        let bytes = MSPBuilder.file(version2: version2, width: 640, height: 480)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            #expect(info(outcome)?.format == .msp)
            #expect(info(outcome)?.size == [640, 480])
            #expect(info(outcome)?.bitDepth == 1)
            #expect(outcome.bytesConsumed == UInt64(MSPBuilder.answerEnd))
        }
    }

    @Test func theChecksumConfirmsTheKey() {
        for error in [1, 0x100, 0x8000] {
            #expect(failureCode(verified(MSPBuilder.file(width: 4, height: 4, checksumError: error))) == .malformed)
        }
        #expect(failureCode(verified(MSPBuilder.file(width: 0, height: 4))) == .malformed)
        #expect(failureCode(verified(ascii("DanX") + MSPBuilder.file(width: 4, height: 4).dropFirst(4))) == .unknownFormat)
        // Version 1's key with version 2's second half.
        #expect(failureCode(verified(ascii("DanS") + MSPBuilder.file(width: 4, height: 4).dropFirst(4))) == .unknownFormat)
    }
}
