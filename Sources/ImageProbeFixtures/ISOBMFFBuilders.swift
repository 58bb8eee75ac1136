/// HEIF and AVIF files: ISO/IEC 14496-12 boxes with the item structure of ISO/IEC 23008-12.
public enum ISOBMFFBuilder {
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append32(8 + payload.count, .bigEndian)
        return bytes + ascii(type) + payload
    }

    /// A box with the 64-bit size form (size field 1).
    public static func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append32(1, .bigEndian)
        bytes += ascii(type)
        bytes.append64(UInt64(16 + payload.count), .bigEndian)
        return bytes + payload
    }

    /// A box with size 0: it runs to the end of the file.
    public static func openBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        [0, 0, 0, 0] + ascii(type) + payload
    }

    public static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        var header: [UInt8] = [version]
        header.append24(Int(flags), .bigEndian)
        return box(type, header + payload)
    }

    public static func ftyp(major: String, compatible: [String]) -> [UInt8] {
        box("ftyp", ascii(major) + [0, 0, 0, 0] + compatible.flatMap(ascii))
    }

    /// An item property for `ipco`.
    public enum Property: Sendable {
        case ispe(width: Int, height: Int)
        case irot(angle: Int)
        case imir(axis: Int)
        case clap(widthN: UInt32, widthD: UInt32, heightN: UInt32, heightD: UInt32,
                  horizontalN: Int32, horizontalD: UInt32, verticalN: Int32, verticalD: UInt32)
        case pixi(bits: [Int])
        /// A property the scanner skips (hvcC, av1C, colr, ...).
        case other(String, [UInt8])

        public var bytes: [UInt8] {
            switch self {
            case .ispe(let width, let height):
                var payload: [UInt8] = []
                payload.append32(width, .bigEndian)
                payload.append32(height, .bigEndian)
                return ISOBMFFBuilder.fullBox("ispe", payload)
            case .irot(let angle):
                return ISOBMFFBuilder.box("irot", [UInt8(angle & 3)])
            case .imir(let axis):
                return ISOBMFFBuilder.box("imir", [UInt8(axis & 1)])
            case .clap(let wN, let wD, let hN, let hD, let xN, let xD, let yN, let yD):
                var payload: [UInt8] = []
                for value in [wN, wD, hN, hD, UInt32(bitPattern: xN), xD, UInt32(bitPattern: yN), yD] {
                    payload.append(UInt64(value), width: 4, .bigEndian)
                }
                return ISOBMFFBuilder.box("clap", payload)
            case .pixi(let bits):
                return ISOBMFFBuilder.fullBox("pixi", [UInt8(bits.count)] + bits.map { UInt8($0) })
            case .other(let type, let payload):
                return ISOBMFFBuilder.box(type, payload)
            }
        }
    }

    /// An item: its ID, type and the 1-based `ipco` indices associated with it.
    public struct Item: Sendable {
        public var id: UInt32
        public var type: String
        public var properties: [Int]

        public init(id: UInt32, type: String, properties: [Int]) {
            self.id = id
            self.type = type
            self.properties = properties
        }
    }

    /// The order of `meta`'s children.
    public enum Order: Sendable {
        /// hdlr, pitm, iloc, iinf, iprp (ipco, ipma): what libheif and libavif write.
        case standard
        /// hdlr, iloc, iinf, iprp, pitm: pitm last, as in some AVIF sequences.
        case primaryLast
        /// Associations before properties (ipma, ipco): against the specification.
        case associationsFirst
        /// iprp before iinf, so the primary's type comes late.
        case itemInfoLast
    }

    /// Box versions and flags to vary.
    public struct Versions: Sendable {
        public var pitm: UInt8 = 0
        public var iinf: UInt8 = 0
        public var infe: UInt8 = 2
        public var ipma: UInt8 = 0
        /// `ipma` flag 1: 15-bit property indices in two bytes.
        public var wideIndices = false

        public init(pitm: UInt8 = 0, iinf: UInt8 = 0, infe: UInt8 = 2, ipma: UInt8 = 0, wideIndices: Bool = false) {
            self.pitm = pitm
            self.iinf = iinf
            self.infe = infe
            self.ipma = ipma
            self.wideIndices = wideIndices
        }
    }

    /// A `meta` box for `items`, with `primary` as the primary item.
    public static func meta(
        primary: UInt32, items: [Item], properties: [Property], versions: Versions = Versions(),
        order: Order = .standard, extra: [UInt8] = [], references: [UInt8] = []
    ) -> [UInt8] {
        let hdlr = fullBox("hdlr", [0, 0, 0, 0] + ascii("pict") + [UInt8](repeating: 0, count: 12) + [0])
        var pitmPayload: [UInt8] = []
        pitmPayload.append(UInt64(primary), width: versions.pitm == 0 ? 2 : 4, .bigEndian)
        let pitm = fullBox("pitm", version: versions.pitm, pitmPayload)
        var iinfPayload: [UInt8] = []
        iinfPayload.append(UInt64(items.count), width: versions.iinf == 0 ? 2 : 4, .bigEndian)
        for item in items {
            var entry: [UInt8] = []
            entry.append(UInt64(item.id), width: versions.infe >= 3 ? 4 : 2, .bigEndian)
            entry.append16(0, .bigEndian)
            entry += versions.infe >= 2 ? ascii(item.type) + ascii("name") + [0] : ascii("name") + [0, 0]
            iinfPayload += fullBox("infe", version: versions.infe, entry)
        }
        let iinf = fullBox("iinf", version: versions.iinf, iinfPayload)
        let iloc = fullBox("iloc", version: 1, [0x44, 0x00, 0x00, 0x00])
        let ipco = box("ipco", properties.flatMap(\.bytes))
        var ipmaPayload: [UInt8] = []
        ipmaPayload.append32(items.count, .bigEndian)
        for item in items {
            ipmaPayload.append(UInt64(item.id), width: versions.ipma == 0 ? 2 : 4, .bigEndian)
            ipmaPayload.append(UInt8(item.properties.count))
            for index in item.properties {
                // The top bit marks the association "essential".
                if versions.wideIndices { ipmaPayload.append16(0x8000 | index, .bigEndian) } else { ipmaPayload.append(0x80 | UInt8(index)) }
            }
        }
        let ipma = fullBox("ipma", version: versions.ipma, flags: versions.wideIndices ? 1 : 0, ipmaPayload)
        let children: [UInt8]
        switch order {
        case .standard: children = hdlr + pitm + iloc + iinf + references + box("iprp", ipco + ipma)
        case .primaryLast: children = hdlr + iloc + iinf + box("iprp", ipco + ipma) + pitm
        case .associationsFirst: children = hdlr + pitm + iloc + iinf + box("iprp", ipma + ipco)
        case .itemInfoLast: children = hdlr + pitm + iloc + box("iprp", ipco + ipma) + iinf
        }
        return fullBox("meta", children + extra)
    }

    /// An `iref` box (HEIF §6.4.1 of ISO/IEC 14496-12 §8.11.12): reference boxes of a type,
    /// from an item to others, with 16-bit item IDs (version 0) or 32-bit (version 1).
    public static func iref(version: UInt8 = 0, _ references: [(type: String, from: UInt32, to: [UInt32])]) -> [UInt8] {
        let width = version == 0 ? 2 : 4
        var payload: [UInt8] = []
        for reference in references {
            var body: [UInt8] = []
            body.append(UInt64(reference.from), width: width, .bigEndian)
            body.append16(reference.to.count, .bigEndian)
            for id in reference.to { body.append(UInt64(id), width: width, .bigEndian) }
            payload += box(reference.type, body)
        }
        return fullBox("iref", version: version, payload)
    }

    /// An `hvcC` (ISO/IEC 14496-15 §8.3.3.1.2) up to its bit depths, with no parameter sets.
    public static func hvcC(bitDepth: Int) -> Property {
        var payload = [UInt8](repeating: 0, count: 23)
        payload[0] = 1
        payload[17] = 0xF8 | UInt8(bitDepth - 8)
        payload[18] = 0xF8 | UInt8(bitDepth - 8)
        return .other("hvcC", payload)
    }

    /// An `av1C` (AV1-ISOBMFF §2.3.3) stating `bitDepth` (8, 10 or 12), with `configOBUs` after
    /// its four fixed bytes (a sequence header OBU from `AV1SequenceHeaderBuilder`, say).
    public static func av1C(bitDepth: Int, profile: Int = 0, configOBUs: [UInt8] = []) -> Property {
        let depthBits: UInt8 = bitDepth == 12 ? 0x60 : bitDepth == 10 ? 0x40 : 0
        return .other("av1C", [0x81, UInt8(profile << 5), depthBits, 0] + configOBUs)
    }

    /// ftyp, optional boxes before meta (a large mdat, say), meta, then image data.
    public static func file(
        major: String, compatible: [String], before: [UInt8] = [], meta: [UInt8], after: [UInt8] = box("mdat", [1, 2, 3, 4])
    ) -> [UInt8] {
        ftyp(major: major, compatible: compatible) + before + meta + after
    }

    /// A typical phone HEIC: a grid of 512×512 tiles, the grid's own ispe, a thumbnail with a
    /// 320×240 ispe listed first, and irot on the grid.
    public static func phoneStyle(width: Int, height: Int, rotation: Int = 3) -> [UInt8] {
        let properties: [Property] = [
            .other("hvcC", [1, 2, 3]), .ispe(width: 320, height: 240), .other("hvcC", [4, 5, 6]),
            .ispe(width: 512, height: 512), .ispe(width: width, height: height), .irot(angle: rotation), .pixi(bits: [8, 8, 8]),
        ]
        var items = [Item(id: 49, type: "hvc1", properties: [1, 2])]
        for tile in 0..<4 { items.append(Item(id: UInt32(1 + tile), type: "hvc1", properties: [3, 4])) }
        items.append(Item(id: 50, type: "grid", properties: [5, 6, 7]))
        return file(major: "heic", compatible: ["mif1", "heic"], meta: meta(primary: 50, items: items, properties: properties))
    }
}
