// Byte builders for JPEG XL (bare codestreams and the 18181-2 container) and JPEG 2000
// (raw codestreams and JP2 files). Each returns the file and where its answers end, so tests
// derive their expectations from the parameters.

/// Boxes as JPEG XL's container and JP2 lay them out (ISO/IEC 18181-2, 15444-1 I.4).
public enum JPEGBox {
    /// How a box's length is written.
    public enum Length: Sendable, Equatable {
        /// The 32-bit size of the whole box.
        case exact
        /// Size 1, then the 64-bit size of the whole box.
        case large
        /// Size 0: the box runs to the end of the file.
        case toEnd
        /// This 32-bit size, whatever the payload.
        case declared(UInt32)
        /// Size 1, then this 64-bit size, whatever the payload.
        case declaredLarge(UInt64)
    }

    public static func box(_ type: String, _ payload: [UInt8], length: Length = .exact) -> [UInt8] {
        var bytes: [UInt8] = []
        switch length {
        case .exact: bytes.append32(payload.count + 8, .bigEndian)
        case .toEnd: bytes.append32(0, .bigEndian)
        case .declared(let size): bytes.append32(Int(size), .bigEndian)
        case .large, .declaredLarge: bytes.append32(1, .bigEndian)
        }
        bytes.append(ascii: type)
        switch length {
        case .large: bytes.append64(UInt64(payload.count + 16), .bigEndian)
        case .declaredLarge(let size): bytes.append64(size, .bigEndian)
        case .exact, .toEnd, .declared: break
        }
        return bytes + payload
    }

    /// The 12-byte signature box shared by JPEG XL (`JXL `) and JP2 (`jP  `).
    public static func signature(_ type: String) -> [UInt8] { box(type, [0x0D, 0x0A, 0x87, 0x0A]) }

    /// A file type box: major brand, minor version 0, compatible brands.
    public static func fileType(_ brand: String, compatible: [String]) -> [UInt8] {
        box("ftyp", ascii(brand) + [0, 0, 0, 0] + compatible.flatMap(ascii))
    }
}

/// Writes bits least significant first, the order of JPEG XL's codestream.
public struct JXLBitWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    public private(set) var bitCount = 0

    public init() {}

    public mutating func write(_ value: Int, bits: Int) {
        for bit in 0..<bits {
            if bitCount % 8 == 0 { bytes.append(0) }
            if (value >> bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (bitCount % 8)) }
            bitCount += 1
        }
    }
}

/// JPEG XL codestreams and container files.
public enum JXLBuilder {
    /// SizeHeader's fixed aspect ratios, codes 1...7 (ISO/IEC 18181-1, SizeHeader).
    public static let ratios: [(numerator: Int, denominator: Int)] = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)]
    /// Bits of the U32 distributions BitsOffset(n, 1) for height and width, by selector.
    public static let selectorBits = [9, 13, 18, 30]

    /// How a SizeHeader codes the size.
    public struct Size: Sendable {
        public var height: Int
        /// Written only when `ratio` is 0.
        public var width: Int
        /// `small`: both dimensions as multiples of 8 up to 256, in 5 bits each.
        public var small: Bool
        /// 0: the width is coded; 1...7: it follows from the height.
        public var ratio: Int
        public var heightSelector: Int
        public var widthSelector: Int

        public init(height: Int, width: Int, small: Bool = false, ratio: Int = 0, heightSelector: Int = 0, widthSelector: Int = 0) {
            self.height = height
            self.width = width
            self.small = small
            self.ratio = ratio
            self.heightSelector = heightSelector
            self.widthSelector = widthSelector
        }

        /// The coding an encoder picks (libjxl's SizeHeader::Set): a ratio when one gives the
        /// width exactly, `small` when it fits, otherwise the narrowest distribution.
        public static func preferred(width: Int, height: Int) -> Size {
            let ratio = (1...7).first { width == height * JXLBuilder.ratios[$0 - 1].numerator / JXLBuilder.ratios[$0 - 1].denominator } ?? 0
            let small = height <= 256 && height % 8 == 0 && (ratio != 0 || (width <= 256 && width % 8 == 0))
            return Size(height: height, width: width, small: small, ratio: ratio,
                        heightSelector: narrowestSelector(height), widthSelector: narrowestSelector(width))
        }

        static func narrowestSelector(_ value: Int) -> Int {
            JXLBuilder.selectorBits.firstIndex { value - 1 < 1 << $0 } ?? 3
        }
    }

    /// The start of ImageMetadata.
    public enum Metadata: Sendable {
        /// `all_default`: orientation 1, 8-bit, no extra channels.
        case allDefault
        /// Not all default, but no `extra_fields`: orientation 1.
        case noExtraFields
        /// `extra_fields` with this orientation (1...8).
        case orientation(Int)
        /// `extra_fields`, orientation 1, and an animation header: 100 ticks per second and
        /// `loops` (`num_loops`, 0 forever).
        case animation(loops: Int)
    }

    /// A codestream and where its answers end.
    public struct Codestream: Sendable {
        public var bytes: [UInt8]
        /// Bits of the SizeHeader, and of the SizeHeader plus what full mode reads of
        /// ImageMetadata: to `all_default` or `extra_fields` when they settle everything, else
        /// through the orientation and the `have_intrinsic_size`, `have_preview` and
        /// `have_animation` flags (this builder writes all three as 0).
        public var sizeHeaderBits: Int
        public var headerBits: Int
        /// Codestream bytes needed for the size, and for full mode's answer.
        public var sizeEnd: Int { 2 + (sizeHeaderBits + 7) / 8 }
        public var fullModeEnd: Int { 2 + (headerBits + 7) / 8 }
    }

    /// `FF 0A`, the SizeHeader as `size` says, the start of ImageMetadata, and `trailing`
    /// bytes standing in for the rest.
    public static func codestream(_ size: Size, metadata: Metadata = .allDefault, trailing: Int = 24) -> Codestream {
        var bits = JXLBitWriter()
        bits.write(size.small ? 1 : 0, bits: 1)
        if size.small {
            bits.write(size.height / 8 - 1, bits: 5)
        } else {
            bits.write(size.heightSelector, bits: 2)
            bits.write(size.height - 1, bits: selectorBits[size.heightSelector])
        }
        bits.write(size.ratio, bits: 3)
        if size.ratio == 0 {
            if size.small {
                bits.write(size.width / 8 - 1, bits: 5)
            } else {
                bits.write(size.widthSelector, bits: 2)
                bits.write(size.width - 1, bits: selectorBits[size.widthSelector])
            }
        }
        let sizeHeaderBits = bits.bitCount
        switch metadata {
        case .allDefault:
            bits.write(1, bits: 1)
        case .noExtraFields:
            bits.write(0, bits: 2)
        case .orientation(let orientation):
            bits.write(0, bits: 1)
            bits.write(1, bits: 1)
            bits.write(orientation - 1, bits: 3)
            // No intrinsic size, preview or animation.
            bits.write(0, bits: 3)
        case .animation(let loops):
            bits.write(0, bits: 1)
            bits.write(1, bits: 1)
            bits.write(0, bits: 3)  // orientation 1
            bits.write(0, bits: 2)  // no intrinsic size, no preview
            bits.write(1, bits: 1)  // have_animation
            bits.write(0, bits: 2)  // tps_numerator: Val(100)
            bits.write(0, bits: 2)  // tps_denominator: Val(1)
            // num_loops: U32(Val(0), Bits(3), Bits(16), Bits(32)).
            switch loops {
            case 0: bits.write(0, bits: 2)
            case 1..<8: bits.write(1, bits: 2); bits.write(loops, bits: 3)
            case 8..<65536: bits.write(2, bits: 2); bits.write(loops, bits: 16)
            default: bits.write(3, bits: 2); bits.write(loops, bits: 32)
            }
            bits.write(0, bits: 1)  // have_timecodes
        }
        let headerBits = bits.bitCount
        // What would follow: 8-bit samples, ...
        bits.write(0, bits: 5)
        var bytes: [UInt8] = [0xFF, 0x0A] + bits.bytes
        bytes.appendFiller(trailing, seed: 0x5A)
        return Codestream(bytes: bytes, sizeHeaderBits: sizeHeaderBits, headerBits: headerBits)
    }

    /// A codestream of `width` × `height` coded as an encoder would.
    public static func codestream(width: Int, height: Int, metadata: Metadata = .allDefault) -> Codestream {
        codestream(Size.preferred(width: width, height: height), metadata: metadata)
    }

    /// A piece of a container file after the signature and `ftyp` boxes.
    public enum Piece: Sendable {
        /// Any box, as given.
        case box([UInt8])
        /// A `jxlc` box holding these codestream bytes.
        case whole([UInt8], length: JPEGBox.Length = .exact)
        /// A `jxlp` box holding these codestream bytes.
        case part([UInt8], index: UInt32, last: Bool, length: JPEGBox.Length = .exact)
    }

    /// A container file, and where each codestream byte landed in it.
    public struct File: Sendable {
        public var bytes: [UInt8]
        public var codestreamOffsets: [Int]

        /// The file offset just past the first `count` codestream bytes.
        public func end(ofCodestreamBytes count: Int) -> Int { codestreamOffsets[count - 1] + 1 }
    }

    public static let fileType = JPEGBox.fileType("jxl ", compatible: ["jxl "])

    /// The signature box, `head` (normally the `ftyp` box), then `pieces`.
    public static func container(_ pieces: [Piece], head: [UInt8] = fileType) -> File {
        var bytes = JPEGBox.signature("JXL ") + head
        var offsets: [Int] = []
        for piece in pieces {
            switch piece {
            case .box(let box):
                bytes += box
            case .whole(let codestream, let length):
                let box = JPEGBox.box("jxlc", codestream, length: length)
                offsets += (bytes.count + box.count - codestream.count..<bytes.count + box.count)
                bytes += box
            case .part(let codestream, let index, let last, let length):
                var payload: [UInt8] = []
                payload.append32(Int(index | (last ? 0x8000_0000 : 0)), .bigEndian)
                payload += codestream
                let box = JPEGBox.box("jxlp", payload, length: length)
                offsets += (bytes.count + box.count - codestream.count..<bytes.count + box.count)
                bytes += box
            }
        }
        return File(bytes: bytes, codestreamOffsets: offsets)
    }

    /// `codestream` cut at `cuts` into `jxlp` boxes, numbered in order, the last one marked,
    /// with `between` inserted after every part but the last.
    public static func parts(_ codestream: [UInt8], cuts: [Int], between: [UInt8]? = nil) -> [Piece] {
        let bounds = [0] + cuts + [codestream.count]
        var pieces: [Piece] = []
        for index in 0..<bounds.count - 1 {
            let last = index == bounds.count - 2
            pieces.append(.part(Array(codestream[bounds[index]..<bounds[index + 1]]), index: UInt32(index), last: last))
            if let between, !last { pieces.append(.box(between)) }
        }
        return pieces
    }
}

/// JPEG 2000 codestreams and JP2 files.
public enum JPEG2000Builder {
    /// SOC, a SIZ segment for an image of `width` × `height` at (`xOffset`, `yOffset`) on the
    /// reference grid, with `components` components of `bitDepth` bits, then COD, QCD and EOC.
    public static func codestream(
        width: Int, height: Int, xOffset: Int = 0, yOffset: Int = 0, components: Int = 3, bitDepth: Int = 8,
        signed: Bool = false, sizeLength: Int? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51]
        bytes.append16(sizeLength ?? 38 + 3 * components, .bigEndian)
        bytes.append16(0, .bigEndian)  // Rsiz: no restrictions
        bytes.append32(xOffset + width, .bigEndian)
        bytes.append32(yOffset + height, .bigEndian)
        bytes.append32(xOffset, .bigEndian)
        bytes.append32(yOffset, .bigEndian)
        bytes.append32(xOffset + width, .bigEndian)  // one tile
        bytes.append32(yOffset + height, .bigEndian)
        bytes.append32(0, .bigEndian)
        bytes.append32(0, .bigEndian)
        bytes.append16(components, .bigEndian)
        for _ in 0..<components { bytes += [UInt8(bitDepth - 1) | (signed ? 0x80 : 0), 1, 1] }
        bytes += [0xFF, 0x52, 0x00, 0x0C, 0x00, 0x00, 0x00, 0x01, 0x00, 0x05, 0x04, 0x04, 0x00, 0x00]  // COD
        bytes += [0xFF, 0x5C, 0x00, 0x04, 0x40, 0x00]  // QCD, no quantization
        bytes += [0xFF, 0xD9]  // EOC
        return bytes
    }

    /// The `ihdr` box: HEIGHT, WIDTH, NC, BPC, C (7: wavelet), UnkC, IPR.
    public static func imageHeader(width: Int, height: Int, components: Int = 3, bitsPerComponent: UInt8 = 7,
                                   length: JPEGBox.Length = .exact) -> [UInt8] {
        var payload: [UInt8] = []
        payload.append32(height, .bigEndian)
        payload.append32(width, .bigEndian)
        payload.append16(components, .bigEndian)
        payload += [bitsPerComponent, 7, 0, 0]
        return JPEGBox.box("ihdr", payload, length: length)
    }

    /// A `colr` box: enumerated sRGB.
    public static let colour = JPEGBox.box("colr", [1, 0, 0, 0, 0, 0, 16])

    /// A JP2 file and the offset of its `ihdr` payload.
    public struct File: Sendable {
        public var bytes: [UInt8]
        public var imageHeaderPayload: Int
        /// Where the dimensions-only answer ends (after WIDTH), and the full one (after BPC).
        public var sizeEnd: Int { imageHeaderPayload + 8 }
        public var bitDepthEnd: Int { imageHeaderPayload + 11 }
    }

    /// The signature and `ftyp` boxes, `before`, then `jp2h` holding `headerBefore`, `ihdr`
    /// and `colr`, then `jp2c` with a codestream of the same size.
    public static func jp2(
        width: Int, height: Int, bitsPerComponent: UInt8 = 7, brand: String = "jp2 ", before: [[UInt8]] = [],
        headerBefore: [[UInt8]] = [], headerLength: JPEGBox.Length = .exact, imageHeaderLength: JPEGBox.Length = .exact
    ) -> File {
        var bytes = JPEGBox.signature("jP  ") + JPEGBox.fileType(brand, compatible: ["jp2 "])
        bytes += before.flatMap { $0 }
        let children = headerBefore.flatMap { $0 }
        let imageHeader = imageHeader(width: width, height: height, bitsPerComponent: bitsPerComponent, length: imageHeaderLength)
        let header = JPEGBox.box("jp2h", children + imageHeader + colour, length: headerLength)
        let headerBoxSize = headerLength == .large ? 16 : 8
        let imageHeaderSize = imageHeaderLength == .large ? 16 : 8
        let payload = bytes.count + headerBoxSize + children.count + imageHeaderSize
        bytes += header
        bytes += JPEGBox.box("jp2c", codestream(width: width, height: height, bitDepth: Int(bitsPerComponent & 0x7F) + 1))
        return File(bytes: bytes, imageHeaderPayload: payload)
    }
}
