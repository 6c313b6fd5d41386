import Foundation

/// A media playlist with its analysed segments, on the title's PTS timeline.
struct RungAnalysis {
    struct Segment {
        let entry: MediaSegment
        let file: String
        let stream: TransportStreamSegment
        /// Ticks added to the stream's PTS to place it on the title's timeline.
        let shift: Int64

        var videoStart: Int64? { stream.video?.firstPTS.map { $0 + shift } }
        var videoLast: Int64? { stream.video?.lastPTS.map { $0 + shift } }
        var audioStart: Int64? { stream.audio.first?.firstPTS.map { $0 + shift } }
        var audioEnd: Int64? { stream.audio.first?.endPTS.map { $0 + shift } }
        var idrs: [Int64] { stream.video?.idrPTS.map { $0 + shift } ?? [] }
    }

    let url: URL
    let file: String
    let playlist: MediaPlaylist
    let segments: [Segment]
    /// The distance between pictures in ticks, from all PTS of the rung (or the VUI for a single picture).
    let frameTicks: Double?

    init(url: URL, file: String, playlist: MediaPlaylist, segments: [Segment]) {
        self.url = url
        self.file = file
        self.playlist = playlist
        self.segments = segments
        let pts = Set(segments.flatMap { segment in segment.stream.video?.accessUnits.map { $0.pts + segment.shift } ?? [] }).sorted()
        if let first = pts.first, let last = pts.last, pts.count > 1 {
            frameTicks = Double(last - first) / Double(pts.count - 1)
        } else {
            let sps = segments.lazy.compactMap { $0.stream.video?.sps }.first
            frameTicks = sps?.vuiFrameRate.map { Timestamp.ticksPerSecond / $0 }
        }
    }

    var sps: SequenceParameterSet? { segments.lazy.compactMap { $0.stream.video?.sps }.first }
    var audioHeader: ADTSHeader? { segments.lazy.compactMap { $0.stream.audio.first?.header }.first }
    /// The first audio stream that carries frames: its codec and channels describe the rung's audio.
    var audioStream: AudioStream? { segments.lazy.compactMap { $0.stream.audio.first }.first { $0.codec != nil } }
    var frameRate: Double? { frameTicks.map { Timestamp.ticksPerSecond / $0 } }
    var hasAudio: Bool { segments.contains { !$0.stream.audio.isEmpty } }
    var idrs: [Int64] { segments.flatMap(\.idrs) }
    var videoStart: Int64? { segments.first?.videoStart }

    /// Where segment `index` stops showing video: its last PTS plus one frame.
    func videoEnd(_ index: Int) -> Double? {
        guard let last = segments[index].videoLast else { return nil }
        return Double(last) + (frameTicks ?? 0)
    }

    /// The codec strings the bitstream calls for.
    var codecs: [String] {
        [sps?.codecString, audioHeader.map { "mp4a.40.\($0.objectType)" }].compactMap { $0 }
    }

    /// The segments as byte counts and EXTINF durations, for bit rate measurement.
    var sizes: [(bytes: Int, duration: Double)] {
        segments.map { segment in
            (segment.entry.byteRange?.length ?? segment.stream.fragments?.byteCount
                ?? segment.stream.packetCount * TransportStreamSegment.packetSize, segment.entry.duration)
        }
    }

    var measurement: RungMeasurement {
        var measurement = RungMeasurement(playlist: file, targetDuration: playlist.targetDuration)
        measurement.segments = segments.indices.map { index in
            let segment = segments[index]
            var entry = SegmentMeasurement(file: segment.file, bytes: sizes[index].bytes, duration: segment.entry.duration)
            entry.videoStart = segment.videoStart.map(Timestamp.seconds)
            entry.videoEnd = videoEnd(index).map { $0 / Timestamp.ticksPerSecond }
            entry.audioStart = segment.audioStart.map(Timestamp.seconds)
            entry.audioEnd = segment.audioEnd.map(Timestamp.seconds)
            entry.idrTimes = segment.idrs.map(Timestamp.seconds)
            return entry
        }
        measurement.peakBandwidth = Bandwidth.peak(segments: sizes, targetDuration: playlist.targetDuration ?? 0)
        measurement.averageBandwidth = Bandwidth.average(segments: sizes)
        measurement.sps = sps
        measurement.audio = audioHeader
        measurement.audioChannels = audioStream?.channels
        measurement.codecs = codecs
        measurement.frameRate = frameRate
        measurement.idrTimes = idrs.map(Timestamp.seconds)
        if let start = videoStart, let end = segments.indices.last.flatMap(videoEnd) {
            measurement.videoDuration = (end - Double(start)) / Timestamp.ticksPerSecond
        }
        measurement.playlistDuration = playlist.totalDuration
        return measurement
    }
}
