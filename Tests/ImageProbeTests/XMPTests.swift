@testable import ImageProbe
import ImageProbeFixtures
import Testing

/// The streaming XMP matcher (Sources/ImageProbe/Readers/XMPMatcher.swift): real packets in the
/// forms their writers produce, near misses and decoys, each fed whole, a byte at a time, in
/// two pieces at every split point and in random pieces, with the same facts every time.
@Suite struct XMPTests {
    // MARK: Real packets

    /// An Ultra HDR primary image's XMP, in the form libultrahdr's XMP writer
    /// (`generateXmpForPrimaryImage` in lib/src/jpegrutils.cpp) produces: `hdrgm:Version` as an
    /// attribute and a container directory whose second item is the gain map.
    static let ultraHDRPrimary = """
        <x:xmpmeta
          xmlns:x="adobe:ns:meta/"
          x:xmptk="Adobe XMP Core 5.1.2">
          <rdf:RDF
            xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description
              xmlns:Container="http://ns.google.com/photos/1.0/container/"
              xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
              xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/"
              hdrgm:Version="1.0">
              <Container:Directory>
                <rdf:Seq>
                  <rdf:li
                    rdf:parseType="Resource">
                    <Container:Item
                      Item:Semantic="Primary"
                      Item:Mime="image/jpeg"/>
                  </rdf:li>
                  <rdf:li
                    rdf:parseType="Resource">
                    <Container:Item
                      Item:Semantic="GainMap"
                      Item:Mime="image/jpeg"
                      Item:Length="31427"/>
                  </rdf:li>
                </rdf:Seq>
              </Container:Directory>
            </rdf:Description>
          </rdf:RDF>
        </x:xmpmeta>
        """

    /// The gain map image's own XMP, as libultrahdr's `generateXmpForSecondaryImage` writes it.
    static let ultraHDRGainMap = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.1.2">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description
              xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/"
              hdrgm:Version="1.0"
              hdrgm:GainMapMin="0"
              hdrgm:GainMapMax="2.16"
              hdrgm:Gamma="1"
              hdrgm:OffsetSDR="0.015625"
              hdrgm:OffsetHDR="0.015625"
              hdrgm:HDRCapacityMin="0"
              hdrgm:HDRCapacityMax="2.16"
              hdrgm:BaseRenditionIsHDR="False"/>
          </rdf:RDF>
        </x:xmpmeta>
        """

    /// Adobe's gain map properties as elements, as in Skia's XMP tests (tests/SkXmpTest.cpp).
    static let gainMapElements = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 6.0.0">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
              xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/">
            <rdf:Description rdf:about="">
              <hdrgm:Version>1.0</hdrgm:Version>
              <hdrgm:GainMapMax>3</hdrgm:GainMapMax>
              <hdrgm:HDRCapacityMax>4</hdrgm:HDRCapacityMax>
            </rdf:Description>
          </rdf:RDF>
        </x:xmpmeta>
        """

    /// The example of the Motion Photo format 1.0 (developer.android.com/media/platform/
    /// motion-photo-format): camera attributes and a container directory naming the video.
    static let googleMotionPhoto = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.1.0-jc003">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about=""
                xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
                xmlns:Container="http://ns.google.com/photos/1.0/container/"
                xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
              GCamera:MotionPhoto="1"
              GCamera:MotionPhotoVersion="1"
              GCamera:MotionPhotoPresentationTimestampUs="968644">
              <Container:Directory>
                <rdf:Seq>
                  <rdf:li rdf:parseType="Resource">
                    <Container:Item
                      Item:Mime="image/jpeg"
                      Item:Semantic="Primary"
                      Item:Length="0"
                      Item:Padding="0"/>
                  </rdf:li>
                  <rdf:li rdf:parseType="Resource">
                    <Container:Item
                      Item:Mime="video/mp4"
                      Item:Semantic="MotionPhoto"
                      Item:Length="2592000"
                      Item:Padding="0"/>
                  </rdf:li>
                </rdf:Seq>
              </Container:Directory>
            </rdf:Description>
          </rdf:RDF>
        </x:xmpmeta>
        """

    /// The packet exiftool 12.57 writes for `exiftool -XMP-GCamera:MotionPhoto=1
    /// -XMP-GCamera:MotionPhotoVersion=1 -XMP-GCamera:MotionPhotoPresentationTimestampUs=0` on
    /// a JPEG (the three tags defined in a config file as newer exiftool versions define them):
    /// single quotes, properties as elements, a byte order mark in the packet header, and the
    /// padding exiftool leaves for editing in place.
    static let exiftoolMotionPhoto = exiftoolPacket("""
         <rdf:Description rdf:about=''
          xmlns:GCamera='http://ns.google.com/photos/1.0/camera/'>
          <GCamera:MotionPhoto>1</GCamera:MotionPhoto>
          <GCamera:MotionPhotoPresentationTimestampUs>0</GCamera:MotionPhotoPresentationTimestampUs>
          <GCamera:MotionPhotoVersion>1</GCamera:MotionPhotoVersion>
         </rdf:Description>
        """)

    /// The older Pixel format (`MVIMG_` files), as exiftool writes its XMP-GCamera MicroVideo tags.
    static let exiftoolMicroVideo = exiftoolPacket("""
         <rdf:Description rdf:about=''
          xmlns:GCamera='http://ns.google.com/photos/1.0/camera/'>
          <GCamera:MicroVideo>1</GCamera:MicroVideo>
          <GCamera:MicroVideoOffset>4022143</GCamera:MicroVideoOffset>
          <GCamera:MicroVideoPresentationTimestampUs>1331607</GCamera:MicroVideoPresentationTimestampUs>
          <GCamera:MicroVideoVersion>1</GCamera:MicroVideoVersion>
         </rdf:Description>
        """)

    static func exiftoolPacket(_ description: String) -> String {
        "<?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?>\n"
            + "<x:xmpmeta xmlns:x='adobe:ns:meta/' x:xmptk='Image::ExifTool 12.57'>\n"
            + "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n\n"
            + description + "\n</rdf:RDF>\n</x:xmpmeta>\n"
            + String(repeating: String(repeating: " ", count: 100) + "\n", count: 24)
            + "<?xpacket end='w'?>"
    }

    /// A Samsung motion photo's XMP (Galaxy S20 FE to S23, as PetrVys/MotionPhoto2 reproduces it):
    /// Google's properties, a HEIC primary, and Apple's gain map namespace declared but unused.
    static let samsungMotionPhoto = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.1.0-jc003">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about=""
                xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
                xmlns:Container="http://ns.google.com/photos/1.0/container/"
                xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
                xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/"
              GCamera:MotionPhoto="1"
              GCamera:MotionPhotoVersion="1"
              GCamera:MotionPhotoPresentationTimestampUs="-1">
              <Container:Directory>
                <rdf:Seq>
                  <rdf:li rdf:parseType="Resource">
                    <Container:Item
                      Item:Mime="image/heic"
                      Item:Semantic="Primary"
                      Item:Length="0"
                      Item:Padding="8"/>
                  </rdf:li>
                  <rdf:li rdf:parseType="Resource">
                    <Container:Item
                      Item:Mime="video/quicktime"
                      Item:Semantic="MotionPhoto"
                      Item:Length="404"
                      Item:Padding="0"/>
                  </rdf:li>
                </rdf:Seq>
              </Container:Directory>
            </rdf:Description>
          </rdf:RDF>
        </x:xmpmeta>
        """

    /// Apple's gain map image XMP (an iPhone JPEG's second MPF image), as Skia's `SkJpegXmp`
    /// looks for it: the auxiliary image type and the gain map version, as elements.
    static let appleGainMap = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 6.0.0">
           <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                    xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/"
                    xmlns:apdi="http://ns.apple.com/pixeldatainfo/1.0/">
                 <HDRGainMap:HDRGainMapVersion>131072</HDRGainMap:HDRGainMapVersion>
                 <apdi:AuxiliaryImageType>urn:com:apple:photo:2020:aux:hdrgainmap</apdi:AuxiliaryImageType>
                 <apdi:StoredFormat>1278226488</apdi:StoredFormat>
              </rdf:Description>
           </rdf:RDF>
        </x:xmpmeta>
        """

    @Test func ultraHDRPrimaryImage() {
        let found = facts(Self.ultraHDRPrimary)
        #expect(found == [.hdrGainMapVersion, .gainMapItem])
        var matcher = XMPMatcher()
        matcher.feed(Self.ultraHDRPrimary)
        #expect(matcher.hasGainMap && matcher.foundAnything && matcher.motionPhoto == nil)
        // The directory alone says the same.
        let directoryOnly = Self.ultraHDRPrimary.substituting("      hdrgm:Version=\"1.0\">", with: "      >")
        #expect(directoryOnly != Self.ultraHDRPrimary)
        #expect(facts(directoryOnly) == .gainMapItem)
    }

    @Test func ultraHDRGainMapImage() {
        #expect(facts(Self.ultraHDRGainMap) == .hdrGainMapVersion)
        #expect(facts(Self.gainMapElements) == .hdrGainMapVersion)
    }

    @Test func googleMotionPhoto() {
        #expect(facts(Self.googleMotionPhoto) == .motionPhoto)
        var matcher = XMPMatcher()
        matcher.feed(Self.googleMotionPhoto)
        #expect(matcher.motionPhoto == true && !matcher.hasGainMap)
        // Each of the two says it alone.
        let attributeOnly = Self.googleMotionPhoto.substituting("Item:Semantic=\"MotionPhoto\"", with: "Item:Semantic=\"Video\"")
        #expect(facts(attributeOnly) == .motionPhoto)
        let itemOnly = Self.googleMotionPhoto.substituting("GCamera:MotionPhoto=\"1\"", with: "")
        #expect(facts(itemOnly) == .motionPhoto)
        let neither = attributeOnly.substituting("GCamera:MotionPhoto=\"1\"", with: "")
        #expect(facts(neither) == [])
    }

    @Test func exiftoolPackets() {
        #expect(facts(Self.exiftoolMotionPhoto) == .motionPhoto)
        #expect(facts(Self.exiftoolMicroVideo) == .motionPhoto)
        let off = Self.exiftoolMotionPhoto.substituting("<GCamera:MotionPhoto>1<", with: "<GCamera:MotionPhoto>0<")
        #expect(facts(off) == .notMotionPhoto)
        var matcher = XMPMatcher()
        matcher.feed(off)
        #expect(matcher.motionPhoto == false && matcher.foundAnything)
    }

    @Test func samsungMotionPhoto() {
        // Apple's namespace is declared, but no Apple property is there.
        #expect(facts(Self.samsungMotionPhoto) == .motionPhoto)
    }

    @Test func appleGainMap() {
        #expect(facts(Self.appleGainMap) == .appleGainMap)
        let typeOnly = Self.appleGainMap.substituting(
            "<HDRGainMap:HDRGainMapVersion>131072</HDRGainMap:HDRGainMapVersion>", with: "")
        #expect(facts(typeOnly) == .appleGainMap)
        let versionOnly = Self.appleGainMap.substituting("urn:com:apple:photo:2020:aux:hdrgainmap", with: "disparity")
        #expect(facts(versionOnly) == .appleGainMap)
        let neither = versionOnly.substituting("HDRGainMap:HDRGainMapVersion>", with: "HDRGainMap:HDRGainMapHeadroom>")
        #expect(facts(neither) == [])
    }

    @Test func ultraHDRMotionPhoto() {
        // A motion photo whose primary image is Ultra HDR: both, from one packet.
        let both = Self.googleMotionPhoto.substituting(
            "Item:Semantic=\"Primary\"", with: "Item:Semantic=\"Primary\"/><Container:Item Item:Semantic='GainMap' Item:Mime='image/jpeg'"
        ).substituting("GCamera:MotionPhotoVersion=\"1\"", with: "GCamera:MotionPhotoVersion=\"1\" hdrgm:Version=\"1.0\"")
        #expect(facts(both) == [.motionPhoto, .gainMapItem, .hdrGainMapVersion])
    }

    // MARK: Spellings

    struct Case: Sendable, CustomTestStringConvertible {
        let xml: String
        let facts: UInt8
        init(_ xml: String, _ facts: XMPFacts) {
            self.xml = xml
            self.facts = facts.rawValue
        }
        var testDescription: String { xml }
    }

    @Test(arguments: [
        Case(#"GCamera:MotionPhoto="1""#, .motionPhoto),
        Case(#"GCamera:MotionPhoto='1'"#, .motionPhoto),
        Case(#"GCamera:MotionPhoto = "1""#, .motionPhoto),
        Case("GCamera:MotionPhoto\n\t=\r\n '1'", .motionPhoto),
        Case(#"GCamera:MotionPhoto=" 1 ""#, .motionPhoto),
        Case(#"GCamera:MotionPhoto="0""#, .notMotionPhoto),
        Case(#"GCamera:MotionPhoto='0'"#, .notMotionPhoto),
        Case(#"Camera:MotionPhoto="1""#, .motionPhoto),
        Case(#"Camera:MotionPhoto="0""#, .notMotionPhoto),
        Case(#"GCamera:MicroVideo="1""#, .motionPhoto),
        Case(#"GCamera:MicroVideo="0""#, .notMotionPhoto),
        Case(#"GCamera:MicroVideo="0" GCamera:MotionPhoto="1""#, [.motionPhoto, .notMotionPhoto]),
        Case(#"Item:Semantic='MotionPhoto'"#, .motionPhoto),
        Case(#"Item:Semantic="GainMap""#, .gainMapItem),
        Case(#"hdrgm:Version='1.0'"#, .hdrGainMapVersion),
        Case(#"hdrgm:Version="""#, .hdrGainMapVersion),
        Case(#"HDRGainMap:HDRGainMapVersion="65536""#, .appleGainMap),
        Case(#"apdi:AuxiliaryImageType="urn:com:apple:photo:2020:aux:hdrgainmap""#, .appleGainMap),
        Case(#"dc:source='urn:com:apple:photo:2020:aux:hdrgainmap'"#, .appleGainMap),
        // A quote of the other kind is part of the value.
        Case(#"dc:title="it's" GCamera:MotionPhoto='1'"#, .motionPhoto),
    ])
    func attributes(_ item: Case) {
        #expect(facts(Self.attributes(item.xml)) == XMPFacts(rawValue: item.facts))
    }

    @Test(arguments: [
        Case("<GCamera:MotionPhoto>1</GCamera:MotionPhoto>", .motionPhoto),
        Case("<GCamera:MotionPhoto>\n    1\n  </GCamera:MotionPhoto>", .motionPhoto),
        Case("<GCamera:MotionPhoto >1</GCamera:MotionPhoto >", .motionPhoto),
        Case("<GCamera:MotionPhoto rdf:datatype='x'>1</GCamera:MotionPhoto>", .motionPhoto),
        Case("<GCamera:MotionPhoto>0</GCamera:MotionPhoto>", .notMotionPhoto),
        Case("<Camera:MotionPhoto>1</Camera:MotionPhoto>", .motionPhoto),
        Case("<GCamera:MicroVideo>1</GCamera:MicroVideo>", .motionPhoto),
        Case("<Item:Semantic>GainMap</Item:Semantic>", .gainMapItem),
        Case("<Item:Semantic>MotionPhoto</Item:Semantic>", .motionPhoto),
        Case("<hdrgm:Version>1.0</hdrgm:Version>", .hdrGainMapVersion),
        Case("<HDRGainMap:HDRGainMapVersion>65536</HDRGainMap:HDRGainMapVersion>", .appleGainMap),
        Case("<apdi:AuxiliaryImageType> urn:com:apple:photo:2020:aux:hdrgainmap </apdi:AuxiliaryImageType>", .appleGainMap),
        // A decoy first does not hide what follows.
        Case("<!-- GCamera:MotionPhoto='0' --><GCamera:MotionPhoto>1</GCamera:MotionPhoto>", .motionPhoto),
        Case("<!----><?pi?><![CDATA[]]><GCamera:MotionPhoto>1</GCamera:MotionPhoto>", .motionPhoto),
        Case("<!-- a -> b > c - - d ---><hdrgm:Version>1</hdrgm:Version>", .hdrGainMapVersion),
        Case("<![CDATA[ ] ]> ]>]]><hdrgm:Version>1</hdrgm:Version>", .hdrGainMapVersion),
        Case("<?x a='?' > b ??><hdrgm:Version>1</hdrgm:Version>", .hdrGainMapVersion),
    ])
    func elements(_ item: Case) {
        #expect(facts(Self.elements(item.xml)) == XMPFacts(rawValue: item.facts))
    }

    // MARK: Near misses and decoys: nothing found

    @Test(arguments: [
        // Other properties of the same families.
        #"GCamera:MotionPhotoVersion="1""#,
        #"GCamera:MotionPhotoPresentationTimestampUs="1""#,
        #"GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="1""#,
        #"hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2""#,
        #"HDRGainMap:HDRGainMapHeadroom="4""#,
        #"xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/""#,
        #"xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/""#,
        #"Item:Semantic="Primary" Item:Mime="video/mp4""#,
        // Longer, shorter or otherwise different names.
        #"GCamera:MotionPhotos="1""#,
        #"GCamera:MotionPhot="1""#,
        #"GCamera:Motionphoto="1""#,
        #"gcamera:MotionPhoto="1""#,
        #"XGCamera:MotionPhoto="1""#,
        #"xCamera:MotionPhoto="1""#,
        #"MotionPhoto="1""#,
        #"GCamera:MicroVideos="1""#,
        #"hdrgm:Versions="1.0""#,
        #"hdrgm:Versio="1.0""#,
        #"Xhdrgm:Version="1.0""#,
        #"Item:Semantics="GainMap""#,
        "hdrgm:Version\u{0}=\"1.0\"",
        // Values that are not 1 or 0, nor GainMap or MotionPhoto.
        #"GCamera:MotionPhoto="10""#,
        #"GCamera:MotionPhoto="01""#,
        #"GCamera:MotionPhoto="1 1""#,
        #"GCamera:MotionPhoto="""#,
        #"GCamera:MotionPhoto="true""#,
        #"GCamera:MotionPhoto="&#49;""#,
        #"Item:Semantic="GainMaps""#,
        #"Item:Semantic="gainmap""#,
        #"Item:Semantic="Gain Map""#,
        #"Item:Semantic="MotionPhoto1""#,
        #"apdi:AuxiliaryImageType="urn:com:apple:photo:2020:aux:hdrgainmapx""#,
        #"apdi:AuxiliaryImageType="urn:com:apple:photo:2020:aux:hdrgainma""#,
        #"apdi:AuxiliaryImageType="urn:com:apple:photo:2020:aux:portraiteffectsmatte""#,
        // The words inside another attribute's value.
        #"dc:title='GCamera:MotionPhoto="1" hdrgm:Version="1.0" Item:Semantic="GainMap"'"#,
        #"dc:title="<GCamera:MotionPhoto>1</GCamera:MotionPhoto>""#,
        // Unquoted (not XML).
        "GCamera:MotionPhoto=1",
    ])
    func attributeDecoys(_ xml: String) {
        #expect(facts(Self.attributes(xml)) == [])
    }

    @Test(arguments: [
        // In text, comments, CDATA, processing instructions.
        #"<dc:description>hdrgm:Version="1.0" GCamera:MotionPhoto="1" Item:Semantic="GainMap"</dc:description>"#,
        "<dc:description>&lt;GCamera:MotionPhoto&gt;1&lt;/GCamera:MotionPhoto&gt;</dc:description>",
        #"<!-- <GCamera:MotionPhoto>1</GCamera:MotionPhoto> hdrgm:Version="1.0" -->"#,
        "<!-- a > b -- <hdrgm:Version>1</hdrgm:Version> -->",
        "<![CDATA[<GCamera:MotionPhoto>1</GCamera:MotionPhoto> ]] > ]>]]>",
        #"<?x GCamera:MotionPhoto="1" > <hdrgm:Version>1</hdrgm:Version> ?>"#,
        #"<!DOCTYPE x><!ELEMENT hdrgm:Version ANY>"#,
        // Text that is not right after the property's start tag.
        "</GCamera:MotionPhoto>1<x/>",
        "<GCamera:MotionPhoto/>1",
        "<GCamera:MotionPhoto />1",
        "<GCamera:MotionPhoto><rdf:Alt><rdf:li>1</rdf:li></rdf:Alt></GCamera:MotionPhoto>",
        "<GCamera:MotionPhoto rdf:resource='1'/>",
        "<GCamera:MotionPhoto><!-- 1 -->1</GCamera:MotionPhoto>",
        // Names that differ.
        "<GCamera:MotionPhotos>1</GCamera:MotionPhotos>",
        "<GCamera:MotionPhotoVersion>1</GCamera:MotionPhotoVersion>",
        "<hdrgm:GainMapMax>3</hdrgm:GainMapMax>",
        "<apdi:AuxiliaryImageType>depth</apdi:AuxiliaryImageType>",
    ])
    func elementDecoys(_ xml: String) {
        #expect(facts(Self.elements(xml)) == [])
    }

    @Test func aValueCutShortSaysNothing() {
        // A value counts once it ends: the packet must not stop in the middle of one.
        #expect(facts("<GCamera:MotionPhoto>1") == [])
        #expect(facts("<x GCamera:MotionPhoto='1") == [])
        #expect(facts("<GCamera:MotionPhoto>1<") == .motionPhoto)
        #expect(facts("<x GCamera:MotionPhoto='1'") == .motionPhoto)
    }

    @Test func garbageNeverTraps() {
        for text in ["", "<", "<<<<>>>>", "'\"'\"=", "<a b='", "<a b=\"c", "<!--", "<![CDATA[", "<?", "</", "<a/", "<a =='1'>",
                     "\u{0}\u{FF}<\u{80}:\u{FF}='1'>", "<GCamera:MotionPhoto", "GCamera:MotionPhoto=\"1\""] {
            #expect(facts(text) == [], "\(text)")
        }
        // Bytes that are not UTF-8 at all, every value.
        #expect(facts(bytes: (0...255).map { UInt8($0) } + (0...255).map { UInt8(255 - $0) }) == [])
    }

    @Test func itStaysSmall() {
        #expect(MemoryLayout<XMPMatcher>.size <= 16, "\(MemoryLayout<XMPMatcher>.size)")
    }

    // MARK: Helpers

    /// `attributes` on an rdf:Description, in a packet with the namespaces declared.
    static func attributes(_ attributes: String) -> String {
        "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n"
            + "<rdf:Description rdf:about='' xmlns:GCamera='http://ns.google.com/photos/1.0/camera/'\n  "
            + attributes + "/>\n</rdf:RDF></x:xmpmeta>"
    }

    /// `elements` inside an rdf:Description.
    static func elements(_ elements: String) -> String {
        "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n"
            + "<rdf:Description rdf:about=''>\n  " + elements + "\n</rdf:Description>\n</rdf:RDF></x:xmpmeta>"
    }
}

/// The facts of `packet` fed whole; records a failure unless feeding it a byte at a time, in two
/// pieces at every split point and in random pieces finds the same.
private func facts(_ packet: String, sourceLocation: SourceLocation = #_sourceLocation) -> XMPFacts {
    facts(bytes: Array(packet.utf8), sourceLocation: sourceLocation)
}

private func facts(bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> XMPFacts {
    let whole = scan(bytes, pieces: [bytes.count])
    let byByte = scan(bytes, pieces: Array(repeating: 1, count: bytes.count))
    #expect(byByte == whole, "a byte at a time", sourceLocation: sourceLocation)
    for split in 0...bytes.count {
        let found = scan(bytes, pieces: [split, bytes.count - split])
        if found != whole {
            Issue.record("split at \(split): \(found.rawValue), whole: \(whole.rawValue)", sourceLocation: sourceLocation)
            break
        }
    }
    var random = SeededRandom(seed: UInt64(bytes.count))
    for round in 0..<32 {
        var pieces: [Int] = []
        var left = bytes.count
        while left > 0 {
            // Pieces of up to 97 bytes: the matcher's own fields are 64.
            let piece = min(left, Int(random.next() % 98))
            pieces.append(piece)
            left -= piece
        }
        let found = scan(bytes, pieces: pieces)
        if found != whole {
            Issue.record("random pieces \(round) \(pieces): \(found.rawValue), whole: \(whole.rawValue)", sourceLocation: sourceLocation)
            break
        }
    }
    return whole
}

/// A new matcher fed `bytes` in pieces of the given sizes (which add up to its count).
private func scan(_ bytes: [UInt8], pieces: [Int]) -> XMPFacts {
    var matcher = XMPMatcher()
    bytes.withUnsafeBytes { buffer in
        var start = 0
        for piece in pieces {
            matcher.consume(UnsafeRawBufferPointer(rebasing: buffer[start..<start + piece]))
            start += piece
        }
    }
    return matcher.facts
}

extension XMPMatcher {
    mutating func feed(_ text: String) {
        Array(text.utf8).withUnsafeBytes { consume($0) }
    }
}

extension String {
    /// `self` with every `target` replaced (byte by byte, without Foundation).
    func substituting(_ target: String, with replacement: String) -> String {
        let source = Array(utf8), pattern = Array(target.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < source.count {
            if index + pattern.count <= source.count && source[index..<index + pattern.count].elementsEqual(pattern) {
                result += replacement.utf8
                index += pattern.count
            } else {
                result.append(source[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
