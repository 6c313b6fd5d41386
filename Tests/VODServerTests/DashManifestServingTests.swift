import Testing
@testable import VODServer

/// How the server hands out a title's DASH manifest: its templates resolving below the stream, and a private
/// title's token on each of them.
@Suite struct DashManifestServingTests {
    static let manifest = """
        <?xml version="1.0" encoding="UTF-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static">
          <Period id="0" start="PT0S">
            <SegmentTemplate timescale="100000" initialization="360p/init.mp4" media="360p/segment_$Number%03d$.m4s">
            <SegmentTemplate timescale="100000" media="subtitles_0/segment_$Number%03d$.vtt">
          </Period>
        </MPD>
        """

    @Test func theManifestResolvesBelowTheStream() {
        let served = DashBaseURL.inserting("stream/", into: Self.manifest)
        #expect(served.contains(#"type="static">"# + "\n  <BaseURL>stream/</BaseURL>\n  <Period"))
        #expect(served.components(separatedBy: "<BaseURL>").count == 2, "one BaseURL, the MPD's first element")
    }

    @Test func everyTemplateCarriesTheToken() {
        let served = PlaybackURIs.dash(Self.manifest, token: "T.K.N")
        #expect(served.contains(#"initialization="360p/init.mp4?token=T.K.N" media="360p/segment_$Number%03d$.m4s?token=T.K.N""#))
        #expect(served.contains(#"media="subtitles_0/segment_$Number%03d$.vtt?token=T.K.N""#))
        #expect(served.components(separatedBy: "token=").count == 4, "the three template URLs, no other attribute")
    }
}
