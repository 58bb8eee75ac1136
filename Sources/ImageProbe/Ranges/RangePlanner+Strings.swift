// The planner's text as Strings, for Swift callers (ImageProbeFetch, tests). Left out of the C
// library and the WebAssembly modules (IMAGEPROBE_C_SINGLE_MODULE): their callers read the
// bytes (imageprobe_planner_text), so nothing there needs String's UTF-8 machinery.
#if !IMAGEPROBE_C_SINGLE_MODULE
extension RangePlanner {
    /// A planner for `url` (see `init(configuration:url:)` with bytes).
    public init(configuration: Configuration = Configuration(), url: String) {
        var text = url
        self = text.withUTF8 { RangePlanner(configuration: configuration, url: UnsafeRawBufferPointer($0)) }
    }

    /// The URL of the request to send (and, once settled, the last one requested).
    public var requestURL: String { withRequestURL { String(decoding: $0, as: UTF8.self) } }

    /// The request's header lines (`withRequestHeaderLines`).
    public var requestHeaderLines: String { withRequestHeaderLines { String(decoding: $0, as: UTF8.self) } }

    /// `revalidate(entityTag:lastModified:)` with texts.
    public mutating func revalidate(entityTag: String, lastModified: String) -> Bool {
        var tag = entityTag
        var date = lastModified
        return tag.withUTF8 { tag in
            date.withUTF8 { date in revalidate(entityTag: UnsafeRawBufferPointer(tag), lastModified: UnsafeRawBufferPointer(date)) }
        }
    }

    /// The resource's validators as text (`withValidators`).
    public var validators: (entityTag: String, lastModified: String) {
        withValidators { (String(decoding: $0, as: UTF8.self), String(decoding: $1, as: UTF8.self)) }
    }

    /// One header field given as text.
    public mutating func field(name: String, value: String) {
        var name = name
        var value = value
        name.withUTF8 { name in value.withUTF8 { value in field(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value)) } }
    }
}

extension AddressPolicyRule {
    /// The refusal's words after the address, as text.
    public static func refusalMessage(_ address: UnsafeRawBufferPointer, _ kind: AddressClass) -> String {
        withRefusal(address, kind) { String(decoding: $0, as: UTF8.self) }
    }
}
#endif
