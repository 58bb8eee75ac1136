import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct SVGTests {
    typealias Length = SVGSize.Length

    @Test(arguments: ["\"", "'"])
    func widthAndHeight(quote: String) {
        let document = SVGBuilder.document(prolog: SVGBuilder.fullProlog,
                                           attributes: [SVGBuilder.namespace, ("width", "123px"), ("height", "456px")], quote: quote)
        let quick = verified(document.bytes, dimensionsOnly)
        #expect(info(quick)?.format == .svg)
        #expect(info(quick)?.size == [123, 456])
        // Both are absolute: nothing later can change the size.
        #expect(quick.bytesConsumed == UInt64(document.attributeEnds[2]))
        let full = verified(document.bytes)
        #expect(info(full)?.size == [123, 456])
        #expect(info(full)?.orientation == nil)
        #expect(info(full)?.svg == SVGSize(width: Length(value: 123, unit: .px), height: Length(value: 456, unit: .px)))
        #expect(full.bytesConsumed == UInt64(document.tagEnd))
    }

    @Test func otherAttributesAreIgnored() {
        // stroke-width, data-width, svg:width and a value holding width="9" are not the width.
        let document = SVGBuilder.document(attributes: [
            ("stroke-width", "2"), ("data-width", "7"), ("svg:width", "8"), ("title", "width='9' height='9'"),
            ("width", "123"), ("height", "456"),
        ])
        #expect(info(verified(document.bytes))?.size == [123, 456])
    }

    @Test(arguments: [
        ("96", 96.0, SVGSize.Unit.none), ("96px", 96, .px), ("1in", 1, .inch), ("2.54cm", 2.54, .cm),
        ("25.4mm", 25.4, .mm), ("101.6q", 101.6, .q), ("101.6Q", 101.6, .q), ("72pt", 72, .pt), ("6pc", 6, .pc),
        ("6em", 6, .em), ("12ex", 12, .ex), ("6rem", 6, .rem), ("12ch", 12, .ch), ("96PX", 96, .px), (" 1in ", 1, .inch),
        ("9.6e1", 96, .none), ("0.96E+2px", 96, .px), ("9600e-2", 96, .none), ("+96", 96, .none), ("96.", 96, .none),
        (".96e2", 96, .none), ("1e0in", 1, .inch), ("0.6e1em", 6, .em), ("\n96px\t", 96, .px),
    ])
    func everyUnitAt96DotsPerInch(text: String, value: Double, unit: SVGSize.Unit) {
        let document = SVGBuilder.document(attributes: [("width", text), ("height", text)])
        let found = info(verified(document.bytes))
        #expect(found?.size == [96, 96])
        #expect(found?.svg?.width == Length(value: value, unit: unit))
        #expect(found?.svg?.width?.pixels == 96)
    }

    @Test(arguments: [("10.5", 11), ("10.49", 10), ("10.4999", 10), ("0.5", 1), ("0.2", 1), ("1pt", 1), ("2pt", 3), ("1cm", 38), ("1mm", 4)])
    func fractionalPixelsRoundHalfUp(text: String, pixels: Int) {
        let document = SVGBuilder.document(attributes: [("width", text), ("height", "1")])
        #expect(info(verified(document.bytes))?.width == pixels)
    }

    @Test func viewBoxOnly() {
        for box in ["0 0 123 456", "0,0,123,456", " -10, -20 ,123\n456 ", "0 0 1.23e2 4.56E2", "0-1 123 456"] {
            let document = SVGBuilder.document(attributes: [SVGBuilder.namespace, ("viewBox", box)])
            let quick = verified(document.bytes, dimensionsOnly)
            #expect(info(quick)?.size == [123, 456], "\(box)")
            // Width or height could still follow: the answer waits for the tag's end.
            #expect(quick.bytesConsumed == UInt64(document.tagEnd))
        }
        let found = info(verified(SVGBuilder.document(attributes: [("viewBox", "-1.5 2 123 456")]).bytes))
        #expect(found?.svg == SVGSize(viewBox: SVGSize.ViewBox(minX: -1.5, minY: 2, width: 123, height: 456)))
    }

    @Test func oneDimensionScalesTheViewBox() {
        let width = SVGBuilder.document(attributes: [("viewBox", "0 0 246 912"), ("width", "123")])
        #expect(info(verified(width.bytes))?.size == [123, 456])
        #expect(verified(width.bytes, dimensionsOnly).bytesConsumed == UInt64(width.tagEnd))
        let height = SVGBuilder.document(attributes: [("height", "4.56in"), ("viewBox", "0 0 1 4")])
        #expect(info(verified(height.bytes))?.size == [109, 438])
        // An absolute width and a percentage height: the ratio wins.
        let mixed = SVGBuilder.document(attributes: [("width", "100"), ("height", "10%"), ("viewBox", "0 0 50 25")])
        #expect(info(verified(mixed.bytes))?.size == [100, 50])
        // All three seen: the answer comes at the last of them.
        #expect(verified(mixed.bytes, dimensionsOnly).bytesConsumed == UInt64(mixed.attributeEnds[2]))
    }

    @Test func percentagesAreOfTheViewBox() {
        let document = SVGBuilder.document(attributes: [("width", "50%"), ("height", "25%"), ("viewBox", "0 0 200 400")])
        let found = info(verified(document.bytes))
        #expect(found?.size == [100, 100])
        #expect(found?.svg?.width == Length(value: 50, unit: .percent))
        #expect(found?.svg?.width?.pixels == nil)
        let full = SVGBuilder.document(attributes: [("viewBox", "0 0 200 400"), ("width", "100%")])
        #expect(info(verified(full.bytes))?.size == [200, 400])
    }

    @Test(arguments: ["", " ", "auto", "-5", "5 px", "5%px", "px", "1e", "1e+", ".", "1..2", "5vw", "5e3e3", "&#x35;0"])
    func invalidLengthsAreIgnored(text: String) {
        let document = SVGBuilder.document(attributes: [("width", text), ("height", "10"), ("viewBox", "0 0 30 10")])
        let outcome = verified(document.bytes)
        if text.hasPrefix("&") {
            // A reference would need the DOCTYPE's entities. The height and viewBox came after.
            #expect(failureCode(outcome) == .unsupportedFeature)
            return
        }
        #expect(info(outcome)?.size == [30, 10], "\(text)")
        #expect(info(outcome)?.svg?.width == nil)
    }

    @Test(arguments: ["0 0 123", "0 0 1 2 3", "0 0 -1 2", ",0 0 1 2", "0 0 1 2,", "0,,0 1 2", "0 0 a 2", "", "0 0 1e 2"])
    func invalidViewBoxes(box: String) {
        let document = SVGBuilder.document(attributes: [("viewBox", box), ("width", "50%")])
        #expect(failureCode(verified(document.bytes)) == .unsupportedFeature, "\(box)")
        let sized = SVGBuilder.document(attributes: [("viewBox", box), ("width", "5"), ("height", "6")])
        let found = info(verified(sized.bytes))
        #expect(found?.size == [5, 6])
        #expect(found?.svg?.viewBox == nil)
    }

    @Test func noIntrinsicSize() {
        let cases: [[(String, String)]] = [
            [SVGBuilder.namespace],
            [("width", "100")],  // height unknown, no ratio
            [("width", "100%"), ("height", "100%")],
            [("width", "1"), ("height", "0")],  // renders nothing
            [("viewBox", "0 0 0 10")],
        ]
        for attributes in cases {
            let outcome = verified(SVGBuilder.document(attributes: attributes).bytes)
            #expect(failureCode(outcome) == .unsupportedFeature, "\(attributes)")
        }
    }

    @Test func prologItems() {
        let prologs = [
            "", "\u{FEFF}", " ", "\n\n", "\t", "\r\n", SVGBuilder.fullProlog, SVGBuilder.subsetProlog,
            "<?xml version='1.0'?><?xml-stylesheet href=\"a.css\" type=\"text/css\"?>",
            "<!---->", "<!-- - -- --->", "<!--<svg width=\"1\" height=\"1\">-->",
            "<!DOCTYPE svg>", "<!DOCTYPE svg SYSTEM 'a>b.dtd'>", "<!DOCTYPE svg [ ]  >\n",
            "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- ? -->\n<!DOCTYPE svg [<!ENTITY a \"]>\">]>\n",
        ]
        for prolog in prologs {
            let document = SVGBuilder.document(prolog: prolog, attributes: [("width", "12"), ("height", "34")])
            let outcome = verified(document.bytes, dimensionsOnly)
            #expect(info(outcome)?.size == [12, 34], "\(prolog)")
            #expect(outcome.bytesConsumed == UInt64(document.attributeEnds[1]))
        }
    }

    @Test func rootElementName() {
        for name in ["svg:svg", "a:svg", "svg-1:svg"] {
            let document = SVGBuilder.document(rootName: name, attributes: [("width", "1"), ("height", "2")])
            #expect(info(verified(document.bytes))?.size == [1, 2], "\(name)")
        }
        for name in ["html", "SVG", "svgx", "svg:html", "s", "sv", "svg.1"] {
            let document = SVGBuilder.document(rootName: name, attributes: [("width", "1"), ("height", "2")])
            #expect(failureCode(verified(document.bytes)) == .unknownFormat, "\(name)")
        }
        let empty = SVGBuilder.document(attributes: [("width", "3"), ("height", "4")], separator: "\n\t", empty: true)
        let outcome = verified(empty.bytes)
        #expect(info(outcome)?.size == [3, 4])
        #expect(outcome.bytesConsumed == UInt64(empty.tagEnd))
    }

    @Test func notXML() {
        for text in [" hello", "\n\n{\"json\": 1}", "<!x>", "<1svg>", "<!-x", "<!DOCTYPEsvg>", "<!DOCTYPE svg []x<svg>", "\u{FEFF}\u{FEFF}",
                     "<<svg>", "</svg>", "<![CDATA[x]]><svg>"] {
            #expect(failureCode(verified(ascii(text + " width=\"1\" height=\"1\">"))) == .unknownFormat, "\(text)")
        }
        // EF not followed by the rest of a byte-order mark.
        #expect(failureCode(verified([0xEF, 0xBB, 0x00, 0x3C])) == .unknownFormat)
        // First bytes no XML can start with start no signature: the four after them are read
        // for Aseprite's magic (SPEC.md §3, "Identification") before the answer.
        #expect(failureCode(verified([0xEF, 0x3C, 0x73, 0x76, 0x67, 0x20])) == .unknownFormat)
        #expect(failureCode(verified([0xEF, 0x3C, 0x73, 0x76])) == .truncated)
    }

    @Test func malformedStartTags() {
        let cases = [
            "<svg width=100 height=100 xmlns=http://www.w3.org/2000/svg />",  // no quotes
            "<svg xmlns=\"http://www.w3.org/2000/svg viewBox=\"0 0 100 100>/svg>",  // a quote missing
            "<svg xmlns=\"http://www.w3.org/2000/svg\"\n  onclick='alert(\"<x> <y>\")' width=\"1\" height=\"1\">",
            "<svg a='1' b='2'' width='1' height='1'>",  // a stray quote
            "<svg width=\"1\"height=\"1\">",  // no white space between attributes
            "<svg width=\"1\" width=\"2\" height=\"1\">",  // repeated attribute
            "<svg height=\"1\" viewBox=\"0 0 1 1\" viewBox=\"0 0 1 1\">",
            "<svg width \"1\" height=\"1\">",
            "<svg width=\"1\" height=\"1\" / >",
            "<svg width=\"1\" height=\"1<\">",
            "<svg \"width\"=\"1\">",
            "<svg/ width=\"1\" height=\"1\">",
        ]
        for text in cases {
            let outcome = verified(ascii(text))
            // Errors after a settled size leave a partial answer in full mode.
            if case .done(let found) = outcome.status {
                #expect(found.isPartial, "\(text)")
            } else {
                #expect(failureCode(outcome) == .malformed, "\(text)")
            }
        }
    }

    @Test func dimensionsOnlyAnswersBeforeALaterError() {
        let text = "<svg width=\"5\" height=\"6\" bad=oops>"
        let quick = verified(ascii(text), dimensionsOnly)
        #expect(info(quick)?.size == [5, 6])
        #expect(info(quick)?.isPartial == false)
        let full = info(verified(ascii(text)))
        #expect(full?.size == [5, 6])
        #expect(full?.isPartial == true)
    }

    @Test func hugeNumbers() {
        for text in ["1e400", "99999999999", "1073741825", String(repeating: "9", count: 500), "1e308in"] {
            let document = SVGBuilder.document(attributes: [("width", text), ("height", "1")])
            #expect(failureCode(verified(document.bytes)) == .limitExceeded, "\(text)")
        }
        let tiny = SVGBuilder.document(attributes: [("width", "1e-400"), ("height", "1")])
        #expect(failureCode(verified(tiny.bytes)) == .unsupportedFeature)  // zero: nothing rendered
        let long = SVGBuilder.document(attributes: [("width", "0." + String(repeating: "0", count: 300) + "1e302"), ("height", "1")])
        #expect(info(verified(long.bytes))?.width == 10)
        let manyDigits = SVGBuilder.document(attributes: [("width", "123.4567890123456789012345678"), ("height", "1")])
        #expect(info(verified(manyDigits.bytes))?.width == 123)
        var small = ScanOptions()
        small.maxWidth = 100
        let wide = SVGBuilder.document(attributes: [("width", "101"), ("height", "1")])
        #expect(failureCode(verified(wide.bytes, small)) == .limitExceeded)
    }

    @Test func budget() {
        let padding = "<!--" + String(repeating: "-x", count: 33000) + "-->"
        let late = SVGBuilder.document(prolog: padding, attributes: [("width", "1"), ("height", "1")])
        let outcome = verifiedLong(late.bytes)
        #expect(failureCode(outcome) == .limitExceeded)
        #expect(outcome.bytesConsumed == 65537)
        let justInside = SVGBuilder.document(prolog: "<!--" + String(repeating: "-x", count: 32700) + "-->",
                                             attributes: [("width", "1"), ("height", "1")])
        #expect(info(verifiedLong(justInside.bytes))?.size == [1, 1])
        // A start tag that never ends: full mode stops at the budget with what it has.
        let endless = ascii("<svg width=\"2\" height=\"3\" data=\"") + [UInt8](repeating: 0x61, count: 70000)
        let found = info(verifiedLong(endless))
        #expect(found?.size == [2, 3])
        #expect(found?.isPartial == true)
    }

    @Test func signatureThenRandomBytes() {
        for seed in UInt64(1)...12 {
            var random = SeededRandom(seed: seed)
            let noise = random.bytes(400)
            for start in ["<", " ", "<svg ", "<?", "<!--", "<svg width=\""] {
                #expect(failureCode(verified(ascii(start) + noise)) != nil, "\(start) seed \(seed)")
            }
        }
    }

    @Test func truncation() {
        let document = SVGBuilder.document(attributes: [("width", "12"), ("height", "34"), ("viewBox", "0 0 12 34")])
        let cut = Array(document.bytes[0..<document.attributeEnds[1]])
        let found = info(verified(cut))
        #expect(found?.size == [12, 34])
        #expect(found?.isPartial == true)
        let early = Array(document.bytes[0..<(document.attributeEnds[1] - 1)])
        #expect(failureCode(verified(early)) == .truncated)
        #expect(failureCode(verified(ascii("<svg viewBox=\"0 0 1 1\""))) == .truncated)
    }
}
