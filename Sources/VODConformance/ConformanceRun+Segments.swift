import Foundation

extension ConformanceRun {
    /// Checks a rung's media playlist, then reads, checks and places each of its segments on the title's timeline.
    ///
    /// `audioOnly` is for the playlist of an audio rendition: its segments must hold audio only, and no video rules apply.
    mutating func analyseRung(_ url: URL, _ playlist: MediaPlaylist, audioOnly: Bool = false) -> RungAnalysis? {
        let file = relative(url)
        checkMediaPlaylist(playlist, file)
        var initSegment: FragmentedInit?
        if let map = playlist.mapURI {
            guard let loaded = loadInitSegment(map, of: url) else { return nil }
            initSegment = loaded
        }
        var segments: [RungAnalysis.Segment] = []
        for entry in playlist.segments {
            guard let segmentURL = resolve(entry.uri, from: url),
                  let bytes = read(segmentURL, range: entry.byteRange, from: url) else { continue }
            let segmentFile = relative(segmentURL) + (entry.byteRange.map { " (\($0.length)@\($0.offset))" } ?? "")
            let stream = initSegment.map { TransportStreamSegment(fragmented: bytes, initSegment: $0) } ?? TransportStreamSegment(bytes: bytes)
            if stream.fragments != nil { checkFragments(stream, after: segments.last?.stream, segmentFile) }
            if audioOnly { checkAudioOnlySegment(stream, segmentFile) } else { checkSegment(stream, segmentFile) }
            let shift = timelineShift(for: stream, after: segments.last)
            segments.append(RungAnalysis.Segment(entry: entry, file: segmentFile, stream: stream, shift: shift))
        }
        return RungAnalysis(url: url, file: file, playlist: playlist, segments: segments)
    }

    /// The ticks that move a segment's PTS next to the previous segment's (or the title's first PTS), across 33-bit wraps.
    private mutating func timelineShift(for stream: TransportStreamSegment, after previous: RungAnalysis.Segment?) -> Int64 {
        guard let first = stream.video?.firstPTS ?? stream.audio.first?.firstPTS else { return 0 }
        let reference = previous?.videoStart ?? previous?.audioStart ?? timelineReference ?? first
        if timelineReference == nil { timelineReference = first }
        return Timestamp.unwrap(first, near: reference) - first
    }

    /// The rules every TS or fMP4 segment must meet on its own, video or audio; false when it is neither.
    private mutating func checkContainer(_ stream: TransportStreamSegment, _ file: String) -> Bool {
        if let fragments = stream.fragments, !fragments.startsWithSegmentType || stream.packetCount == 0 {
            flag(.fmp4Segment, file, fragments.startsWithSegmentType ? "the segment has no moof" : "the segment does not start with an styp box")
            return stream.packetCount > 0
        }
        guard stream.packetCount > 0 else {
            flag(.segmentContainer, file, "not MPEG-TS: no 188-byte packet with a 0x47 sync byte")
            return false
        }
        if !stream.startsWithProgramTables {
            flag(.segmentProgramTables, file, "the segment does not start with the PAT followed by the PMT")
        }
        if !stream.problems.isEmpty {
            let more = stream.problems.count > 3 ? " and \(stream.problems.count - 3) more" : ""
            flag(.segmentDecodable, file, stream.problems.prefix(3).joined(separator: "; ") + more)
        }
        return true
    }

    /// The rules a segment of an audio rendition must meet: one audio stream that carries frames, and nothing else.
    private mutating func checkAudioOnlySegment(_ stream: TransportStreamSegment, _ file: String) {
        guard checkContainer(stream, file) else { return }
        let streams = stream.program?.streams ?? []
        let others = streams.filter { !$0.isAudio }
        if !others.isEmpty || stream.audio.count != 1 {
            let types = others.map { "0x" + String($0.streamType, radix: 16) }.joined(separator: ", ")
            flag(.audioOnly, file, "\(stream.audio.count) audio streams and \(others.count) other streams\(types.isEmpty ? "" : " (\(types))"), not one audio stream alone")
        } else if stream.audio.first?.codec == nil {
            flag(.segmentDecodable, file, "the audio stream has no AAC, AC-3 or E-AC-3 frame")
        }
    }

    /// The rules one TS segment must meet on its own.
    private mutating func checkSegment(_ stream: TransportStreamSegment, _ file: String) {
        guard checkContainer(stream, file) else { return }
        guard let video = stream.video else {
            let others = stream.program?.streams.filter { !$0.isAudio } ?? []
            if let other = others.first {
                flag(.videoProfile, file, "video stream type 0x\(String(other.streamType, radix: 16)) is not H.264 (0x1b)")
            } else {
                flag(.segmentDecodable, file, "the segment has no H.264 video stream")
            }
            return
        }
        guard let first = video.accessUnits.first else {
            flag(.segmentDecodable, file, "the segment has no video picture")
            return
        }
        if !video.startsWithIDR {
            let type = first.firstSliceType.map { "NAL type \($0)" } ?? "no slice"
            flag(.segmentIDRStart, file, "the first picture is \(type), not an IDR (NAL type 5)")
        }
        if !video.parameterSetsBeforeFirstSlice {
            flag(.segmentParameterSets, file, "SPS and PPS do not both come before the first slice")
        }
        let leading = video.accessUnits.filter { $0.pts < first.pts }.count
        if leading > 0 {
            flag(.segmentDecodable, file, "\(leading) pictures are shown before the segment's first picture, so they depend on an earlier segment")
        }
    }

    /// The audio rule for one segment of a title that has audio.
    mutating func checkAudio(_ segment: RungAnalysis.Segment) {
        let audio = segment.stream.audio
        guard audio.count == 1, let stream = audio.first else {
            flag(.segmentAudio, segment.file, "\(audio.count) audio streams, not one")
            return
        }
        if stream.streamType != 0x0F {
            flag(.segmentAudio, segment.file, "audio stream type 0x\(String(stream.streamType, radix: 16)) is not AAC in ADTS (0x0f)")
        } else if let header = stream.header {
            if header.objectType != 2 {
                flag(.segmentAudio, segment.file, "AAC object type \(header.objectType) is not AAC-LC (2)")
            }
        } else {
            flag(.segmentAudio, segment.file, "the audio stream has no ADTS frame")
        }
    }
}
