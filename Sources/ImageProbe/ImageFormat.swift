/// An image file format, named in lowercase (`jpeg`, `png`, `heif`, ...).
///
/// A struct with static members rather than a public enum, so that adding a format is not a
/// source-breaking change for code that switches over formats. The formats, their names and
/// media types come from the registry (`Registry/formats.tsv`, generated into
/// `Registry/Registry.generated.swift` by `Scripts/registry.py`).
public struct ImageFormat: Hashable, Sendable {
    @usableFromInline let kind: Kind

    @inlinable
    init(_ kind: Kind) { self.kind = kind }

    /// The format's stable number, 1 to 42: the C interface's `IMAGEPROBE_FORMAT_*` values.
    package var number: Int { Int(kind.rawValue) }

    /// `name`'s UTF-8, in static memory (the registry's table): what the C interface copies.
    package var nameUTF8: UnsafeRawBufferPointer { StaticLines(Self.nameTable).line(Int(kind.rawValue) &- 1) }

    /// `mimeType`'s UTF-8, in static memory, as `nameUTF8`; empty in a build that leaves the
    /// format out.
    package var mimeTypeUTF8: UnsafeRawBufferPointer {
        #if IMAGEPROBE_SELECT_FORMATS
        selectedMimeTypeUTF8
        #else
        StaticLines(Self.mimeTable).line(Int(kind.rawValue) &- 1)
        #endif
    }

    /// Every format the scanner can report, in a stable order.
    public static var all: [ImageFormat] { Kind.allCases.map(ImageFormat.init) }
}

#if !hasFeature(Embedded)
extension ImageFormat: CustomStringConvertible {
    public var description: String { name.description }
}
#endif
