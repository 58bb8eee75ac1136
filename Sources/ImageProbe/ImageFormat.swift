/// An image file format, named in lowercase (`jpeg`, `png`, `heif`, ...).
///
/// A struct with static members rather than a public enum, so that adding a format is not a
/// source-breaking change for code that switches over formats. The formats, their names and
/// media types come from the registry (`Registry/formats.tsv`, generated into
/// `Registry/Registry.generated.swift` by `Scripts/registry.py`).
public struct ImageFormat: Hashable, Sendable {
    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// The format's stable number, 1 to 42: the C interface's `IMAGEPROBE_FORMAT_*` values.
    package var number: Int { Int(kind.rawValue) }

    /// The lowercase name used in SPEC.md and in the CLI's JSON output. A literal: reading it
    /// allocates nothing.
    public var name: String { spelledName() }

    /// The media type to serve this format with (IANA-registered where one exists).
    public var mimeType: String { spelledMIMEType() }

    /// Every format the scanner can report, in a stable order.
    public static var all: [ImageFormat] { Kind.allCases.map(ImageFormat.init) }
}

#if !hasFeature(Embedded)
extension ImageFormat: CustomStringConvertible {
    public var description: String { name.description }
}
#endif
