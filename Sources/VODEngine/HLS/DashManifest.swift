import Foundation

/// The DASH manifest (ISO/IEC 23009-1, `urn:mpeg:dash:profile:isoff-live:2011`, static) of an fMP4 title, which
/// describes the segments its HLS playlists list, not a copy: one AdaptationSet per video codec and dynamic range
/// (an HDR set says its colour as CICP properties), one per audio language and codec (with its role), WebVTT
/// subtitles, and for each Representation a SegmentTemplate whose SegmentTimeline is its media playlist's EXTINF
/// durations, segment for segment.
enum DashManifest {
    /// The manifest's file name, beside `master.m3u8`.
    static let file = "manifest.mpd"
    /// The SegmentTimeline's time scale: the precision the playlists write their durations with, so that each
    /// `d` is its EXTINF exactly.
    static let timescale = Int64(PlaylistWriter.durationPrecision)

    /// The manifest of a title's renditions, its audio and subtitle renditions (segments set), `duration` seconds long.
    static func xml(_ renditions: [Rendition], audio: [AlternateRendition], subtitles: [AlternateRendition],
                    duration: Double, targetDuration: Int) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" "#
                + #"mediaPresentationDuration="\#(period(duration))" minBufferTime="PT\#(targetDuration)S">"#,
            #"  <Period id="0" start="PT0S">"#,
        ]
        var set = 0
        let key = { (rendition: Rendition) in family(rendition.videoCodec) + "|" + rendition.rung.videoRange }
        let keys = renditions.reduce(into: [String]()) { if !$0.contains(key($1)) { $0.append(key($1)) } }
        for setKey in keys {
            let members = renditions.filter { key($0) == setKey }
            lines.append(#"    <AdaptationSet id="\#(set)" contentType="video" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">"#)
            lines += colourProperties(of: members[0].rung)
            for rendition in members {
                let bandwidth = Bandwidth.peak(of: rendition.segmentPieces, targetDuration: targetDuration)
                lines.append(#"      <Representation id="\#(rendition.rung.name)" bandwidth="\#(bandwidth)" codecs="\#(rendition.codecs)" "#
                    + #"width="\#(rendition.rung.width)" height="\#(rendition.rung.height)" frameRate="\#(frameRate(rendition.frameRate))">"#)
                lines += template(folder: rendition.rung.name, segments: rendition.segments, indent: "        ")
                lines.append("      </Representation>")
            }
            lines.append("    </AdaptationSet>")
            set += 1
        }
        for group in groups(audio) {
            let first = group[0]
            let language = first.language.map { #" lang="\#(escaped($0))""# } ?? ""
            lines.append(#"    <AdaptationSet id="\#(set)" contentType="audio" mimeType="audio/mp4"\#(language) segmentAlignment="true" startWithSAP="1">"#)
            lines.append(#"      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="\#(group.contains { $0.isDefault } ? "main" : "alternate")"/>"#)
            for rendition in group {
                let bandwidth = Bandwidth.peak(of: rendition.segments.map { ($0.bytes, $0.duration) }, targetDuration: targetDuration)
                lines.append(#"      <Representation id="\#(AlternateRendition.folder(.audio, rendition.index))" bandwidth="\#(bandwidth)" "#
                    + #"codecs="\#(rendition.codec)" audioSamplingRate="48000">"#)
                lines.append(#"        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="\#(rendition.channels)"/>"#)
                lines += template(folder: AlternateRendition.folder(.audio, rendition.index), segments: rendition.segments, indent: "        ")
                lines.append("      </Representation>")
            }
            lines.append("    </AdaptationSet>")
            set += 1
        }
        for rendition in subtitles {
            let language = rendition.language.map { #" lang="\#(escaped($0))""# } ?? ""
            lines.append(#"    <AdaptationSet id="\#(set)" contentType="text" mimeType="text/vtt"\#(language)>"#)
            lines.append(#"      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="\#(rendition.isForced ? "forced-subtitle" : "subtitle")"/>"#)
            let folder = AlternateRendition.folder(rendition.kind, rendition.index)
            lines.append(#"      <Representation id="\#(folder)" bandwidth="256">"#)
            lines += template(folder: folder, segments: rendition.segments, indent: "        ", media: "vtt")
            lines.append("      </Representation>")
            lines.append("    </AdaptationSet>")
            set += 1
        }
        lines += ["  </Period>", "</MPD>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A SegmentTemplate naming the folder's init segment and numbered segments, with their timeline: each `S`
    /// the EXTINF of its segment, on the media's timeline (`SegmentFiles.timelineOffset` as its time offset);
    /// WebVTT segments (`media` `vtt`) have no init segment.
    private static func template(folder: String, segments: [Segment], indent: String, media: String = "m4s") -> [String] {
        let offset = Int64((SegmentFiles.timelineOffset * Double(timescale)).rounded())
        let initialization = media == "m4s" ? #" initialization="\#(folder)/\#(SegmentFormat.initSegment)""# : ""
        var lines = [indent + #"<SegmentTemplate timescale="\#(timescale)" presentationTimeOffset="\#(offset)" startNumber="0""#
            + #"\#(initialization) media="\#(folder)/segment_$Number%03d$.\#(media)">"#,
                     indent + "  <SegmentTimeline>"]
        var time = offset
        for (index, segment) in segments.enumerated() {
            let duration = Int64((segment.duration * Double(timescale)).rounded())
            lines.append(indent + "    <S " + (index == 0 ? #"t="\#(time)" "# : "") + #"d="\#(duration)"/>"#)
            time += duration
        }
        return lines + [indent + "  </SegmentTimeline>", indent + "</SegmentTemplate>"]
    }

    /// The audio renditions grouped by language and codec, in the order they first appear.
    private static func groups(_ audio: [AlternateRendition]) -> [[AlternateRendition]] {
        var keys: [String] = []
        var groups: [String: [AlternateRendition]] = [:]
        for rendition in audio {
            let key = "\(rendition.language ?? "")|\(rendition.codec)"
            if groups[key] == nil { keys.append(key) }
            groups[key, default: []].append(rendition)
        }
        return keys.compactMap { groups[$0] }
    }

    /// The colour of an HDR AdaptationSet as ISO/IEC 23001-8 (CICP) code points: BT.2020 primaries and matrix,
    /// and the PQ or HLG transfer, which a player must understand to show it; nothing for SDR.
    private static func colourProperties(of rung: PlannedRung) -> [String] {
        guard let transfer = rung.hdrTransferCode else { return [] }
        let property = { (element: String, name: String, value: Int32) in
            #"      <\#(element) schemeIdUri="urn:mpeg:mpegB:cicp:\#(name)" value="\#(value)"/>"#
        }
        return [property("EssentialProperty", "TransferCharacteristics", transfer),
                property("SupplementalProperty", "ColourPrimaries", SourceColour.bt2020),
                property("SupplementalProperty", "MatrixCoefficients", SourceColour.bt2020)]
    }

    /// The codec family of a CODECS value: `avc1`, `hvc1`.
    private static func family(_ codec: String) -> String { String(codec.prefix { $0 != "." }) }

    /// An xs:duration of `seconds`, such as `PT7.000S`.
    private static func period(_ seconds: Double) -> String { String(format: "PT%.3fS", seconds) }

    /// A frame rate as DASH writes it: an integer, or a fraction such as `30000/1001`.
    private static func frameRate(_ rate: Double) -> String {
        let whole = rate.rounded()
        if abs(rate - whole) < 0.0005 { return String(Int(whole)) }
        return "\(Int((whole * 1000).rounded()))/1001"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }
}
