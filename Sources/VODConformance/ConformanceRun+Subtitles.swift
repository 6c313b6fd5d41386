import Foundation

extension ConformanceRun {
    /// Checks the `TYPE=SUBTITLES` renditions, their playlists and WebVTT segments against the first video rung.
    mutating func checkSubtitleRenditions(_ master: MasterPlaylist, _ url: URL, video: RungAnalysis?) {
        let file = relative(url)
        let renditions = master.renditions.filter { $0.type == "SUBTITLES" }
        for rendition in renditions {
            let missing = ["GROUP-ID", "LANGUAGE", "URI"].filter { rendition.attributes[$0] == nil }
            if !missing.isEmpty {
                flag(.subtitlesAttributes, file, "\(rendition.label) lacks \(missing.joined(separator: ", "))")
            }
            if !rendition.isAutoselect {
                flag(.subtitlesAttributes, file, "\(rendition.label) does not have AUTOSELECT=YES")
            }
            guard rendition.uri != nil, let listURL = resolve(rendition.uri, from: url),
                  let playlist = loadMediaPlaylist(listURL, from: url) else { continue }
            checkSubtitlePlaylist(playlist, listURL, video: video)
        }
        for group in Set(renditions.compactMap(\.groupID)).sorted() {
            let defaults = renditions.filter { $0.groupID == group && $0.isDefault }
            if defaults.count > 1 {
                flag(.subtitlesDefault, file, "subtitles group \"\(group)\" has \(defaults.count) renditions with DEFAULT=YES, more than one")
            }
        }
    }

    private mutating func checkSubtitlePlaylist(_ playlist: MediaPlaylist, _ url: URL, video: RungAnalysis?) {
        let file = relative(url)
        checkMediaPlaylist(playlist, file)
        let starts = playlist.segments.indices.map { index in playlist.segments[..<index].reduce(0) { $0 + $1.duration } }
        if let video { compare(subtitles: playlist, starts: starts, file, with: video) }
        let expectedMap = video?.segments.first?.stream.video?.firstPTS
        var segments: [(file: String, vtt: WebVTTSegment)] = []
        for entry in playlist.segments {
            guard let segmentURL = resolve(entry.uri, from: url), let bytes = read(segmentURL, range: entry.byteRange, from: url) else { continue }
            let segmentFile = relative(segmentURL)
            let vtt = WebVTTSegment(bytes: bytes)
            checkWebVTT(vtt, segmentFile, expectedMap: expectedMap, frame: video?.frameTicks ?? 0)
            segments.append((segmentFile, vtt))
        }
        guard segments.count == playlist.segments.count else { return }
        checkCueSplit(segments, ranges: zip(starts, playlist.segments).map { ($0, $0 + $1.duration) })
    }

    private mutating func compare(subtitles playlist: MediaPlaylist, starts: [Double], _ file: String, with video: RungAnalysis) {
        if playlist.targetDuration != video.playlist.targetDuration {
            flag(.subtitlesTargetDuration, file, "TARGETDURATION \(playlist.targetDurationText ?? "missing") differs from \(video.playlist.targetDurationText ?? "missing") in \(video.file)")
        }
        guard playlist.segments.count == video.segments.count else {
            flag(.subtitlesSegmentAlignment, file, "\(playlist.segments.count) segments, \(video.file) has \(video.segments.count)")
            return
        }
        guard let origin = video.videoStart else { return }
        let tolerance = (video.frameTicks ?? 0) / Timestamp.ticksPerSecond + 0.001
        let misaligned = video.segments.indices.filter { index in
            guard let start = video.segments[index].videoStart else { return false }
            let end = starts[index] + playlist.segments[index].duration
            let videoEnd = video.videoEnd(index).map { ($0 - Double(origin)) / Timestamp.ticksPerSecond }
            return abs(starts[index] - Timestamp.seconds(start - origin)) > tolerance || videoEnd.map { abs(end - $0) > tolerance } == true
        }
        if let first = misaligned.first {
            flag(.subtitlesSegmentAlignment, file, "\(misaligned.count) segments, the first being segment \(first), have other boundaries than in \(video.file)")
        }
    }

    /// Header, cue syntax and X-TIMESTAMP-MAP of one WebVTT segment; `expectedMap` is the video's first PTS.
    private mutating func checkWebVTT(_ vtt: WebVTTSegment, _ file: String, expectedMap: Int64?, frame: Double) {
        if !vtt.hasHeader {
            flag(.subtitlesWebVTT, file, "the file does not start with WEBVTT")
        }
        if !vtt.problems.isEmpty {
            flag(.subtitlesWebVTT, file, vtt.problems.prefix(3).joined(separator: "; ") + (vtt.problems.count > 3 ? " and \(vtt.problems.count - 3) more" : ""))
        }
        guard let map = vtt.timestampMap else {
            flag(.subtitlesTimestampMap, file, "the header has no X-TIMESTAMP-MAP")
            return
        }
        guard let mpegts = vtt.mpegts, vtt.local == 0, map.contains("LOCAL:00:00:00.000") else {
            flag(.subtitlesTimestampMap, file, "X-TIMESTAMP-MAP=\(map) is not MPEGTS:<ticks>,LOCAL:00:00:00.000")
            return
        }
        guard let expected = expectedMap else { return }
        let wrap: Int64 = 1 << 33
        let distance = Timestamp.unwrap(mpegts % wrap, near: expected % wrap) - expected % wrap
        if Double(abs(distance)) > frame + 1 {
            flag(.subtitlesTimestampMap, file, "X-TIMESTAMP-MAP MPEGTS:\(mpegts) is not the video's first PTS \(expected % wrap)")
        }
    }

    /// Every cue appears in every segment whose time range (from the playlist's EXTINF) it overlaps.
    private mutating func checkCueSplit(_ segments: [(file: String, vtt: WebVTTSegment)], ranges: [(start: Double, end: Double)]) {
        let margin = 0.001
        var cues: [WebVTTSegment.Cue] = []
        for cue in segments.flatMap(\.vtt.cues) where !cues.contains(cue) { cues.append(cue) }
        for cue in cues {
            for (segment, range) in zip(segments, ranges) where cue.start < range.end - margin && cue.end > range.start + margin {
                if !segment.vtt.cues.contains(cue) {
                    flag(.subtitlesCueSplit, segment.file, "the cue at \(seconds(cue.start)) --> \(seconds(cue.end)) overlaps this segment (\(seconds(range.start))–\(seconds(range.end)) s) but is not in it")
                }
            }
        }
    }
}
