/// A HEIF clean aperture (ISO/IEC 14496-12 `clap`): the part of the decoded image to show.
public struct CleanAperture: Hashable, Sendable {
    public init() {}
}
