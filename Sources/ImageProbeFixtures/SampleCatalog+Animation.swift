import ImageProbe

extension SampleCatalog {
    /// Animations of every format animation mode walks; the fuzzer seeds them in that mode too.
    static var animations: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int, orientation: Int? = nil, frames: Int) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: orientation, frameCount: frames))
        }
        let gifBlocks: [AnimatedGIFBuilder.Block] = [
            .loop(3), .comment([5]),
            .image(centiseconds: 1, x: 0, y: 0, width: 24, height: 16),
            .image(centiseconds: 10, x: 2, y: 3, width: 8, height: 8, localTableBits: 1, dataBlocks: [4, 2]),
            .controlOnly(centiseconds: 7),
            .image(centiseconds: 0, x: 0, y: 0, width: 24, height: 16),
        ]
        add("gif-animation", AnimatedGIFBuilder.file(width: 24, height: 16, blocks: gifBlocks), .gif, 24, 16, frames: 3)
        let frames = [
            BuiltFrame(numerator: 1, denominator: 100, width: 24, height: 16),
            BuiltFrame(numerator: 10, denominator: 0, x: 4, y: 2, width: 10, height: 6),
            BuiltFrame(numerator: 0, denominator: 1, width: 24, height: 16),
        ]
        add("apng-animated", APNGBuilder.file(width: 24, height: 16, frames: frames, plays: 2), .png, 24, 16, frames: 3)
        add("apng-hidden-default", APNGBuilder.file(width: 24, height: 16, frames: frames, plays: 0, defaultImageIsFirstFrame: false), .png, 24, 16, frames: 3)
        let webpFrames = [
            BuiltFrame(numerator: 10, denominator: 1000, width: 24, height: 16),
            BuiltFrame(numerator: 250, denominator: 1000, x: 4, y: 2, width: 10, height: 6),
        ]
        let exif = TIFFBuilder(entries: [.orientation(3)]).build()
        add("webp-animation-frames", AnimatedWebPBuilder.file(width: 24, height: 16, loop: 1, frames: webpFrames, exifAfter: exif), .webp, 24, 16, orientation: 3, frames: 2)
        var colour = SequenceBuilder.Track(width: 24, height: 16, timescale: 600, runs: [(2, 60), (1, 6)])
        colour.sampleEntry = "hvc1"
        colour.trackDuration = 600
        colour.edit = SequenceBuilder.Edit(repeats: true, segmentDuration: 126)
        colour.editAfterMedia = true
        add("heif-sequence", SequenceBuilder.file(major: "msf1", compatible: ["msf1", "hevc"], tracks: [colour], mdatBytes: 16), .heif, 24, 16, frames: 3)
        var alpha = SequenceBuilder.Track(width: 24, height: 16, timescale: 1000, runs: [(2, 50)])
        alpha.auxiliary = true
        alpha.handler = "auxv"
        var avifColour = SequenceBuilder.Track(width: 24, height: 16, timescale: 1000, runs: [(2, 50)])
        avifColour.edit = SequenceBuilder.Edit(repeats: true, segmentDuration: 100, version: 1)
        avifColour.headerVersion = 1
        let meta = ISOBMFFBuilder.meta(
            primary: 1, items: [ISOBMFFBuilder.Item(id: 1, type: "av01", properties: [1])], properties: [.ispe(width: 24, height: 16)])
        add("avif-sequence", SequenceBuilder.file(major: "avis", compatible: ["avif", "avis", "msf1"], meta: meta, tracks: [alpha, avifColour], mdatBytes: 16), .avif, 24, 16, frames: 2)
        return samples
    }
}
