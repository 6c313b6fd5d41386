import Foundation

/// One audio track of a multi-track fixture: a sine tone, its metadata (`language=fre`, `title=…`) and its
/// disposition (`default`, `visual_impaired`, `0`).
public struct ToneTrack: Sendable {
    public var frequency: Int
    public var metadata: [String]
    public var disposition: String

    public init(frequency: Int, metadata: [String] = [], disposition: String = "0") {
        self.frequency = frequency
        self.metadata = metadata
        self.disposition = disposition
    }
}

extension SyntheticClip {
    /// A Matroska film (640×360 unless `size` says otherwise) with one AAC track per tone, as films and broadcasts
    /// carry several languages. Returns its path.
    public static func multiTrack(
        _ tracks: [ToneTrack], duration: Double = 8, size: String = "640x360", in directory: URL
    ) async throws -> String {
        let path = directory.appendingPathComponent("tracks.mkv").path
        var arguments = ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=\(duration)"]
        for track in tracks {
            arguments += ["-f", "lavfi", "-i", "sine=frequency=\(track.frequency):sample_rate=48000:duration=\(duration)"]
        }
        arguments += ["-map", "0:v"] + tracks.indices.flatMap { ["-map", "\($0 + 1):a"] }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"]
        for (index, track) in tracks.enumerated() {
            arguments += track.metadata.flatMap { ["-metadata:s:a:\(index)", $0] }
            arguments += ["-disposition:a:\(index)", track.disposition]
        }
        try await ExternalTool.require("ffmpeg", arguments + [path])
        return path
    }
}

/// An audio-only fixture, as podcasts, music and film soundtracks are uploaded.
public struct AudioOnlyClip: Sendable {
    public var tracks: [ToneTrack]
    public var duration: Double
    /// The encoder: `aac`, `ac3`, `libmp3lame`.
    public var codec: String
    public var channels: Int
    /// The file name, whose extension picks the container: `tone.m4a`, `film.ac3`, `song.mp3`, `tracks.mka`.
    public var fileName: String
    /// Whether the file carries a cover picture, as MP3s and M4As from music libraries do.
    public var coverArt: Bool

    public init(tracks: [ToneTrack] = [ToneTrack(frequency: 440)], duration: Double = 7, codec: String = "aac",
                channels: Int = 2, fileName: String = "tone.m4a", coverArt: Bool = false) {
        self.tracks = tracks
        self.duration = duration
        self.codec = codec
        self.channels = channels
        self.fileName = fileName
        self.coverArt = coverArt
    }

    /// Encodes the fixture in `directory` with Debian's ffmpeg and returns its path.
    public func make(in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent(fileName).path
        var arguments = ["-v", "error"]
        for track in tracks {
            arguments += ["-f", "lavfi", "-i", "sine=frequency=\(track.frequency):sample_rate=48000:duration=\(duration)"]
        }
        if coverArt { arguments += ["-f", "lavfi", "-i", "color=c=orange:size=300x300:duration=1"] }
        arguments += tracks.indices.flatMap { ["-map", "\($0):a"] }
        if coverArt {
            arguments += ["-map", "\(tracks.count):v", "-frames:v", "1", "-c:v", "mjpeg", "-disposition:v", "attached_pic"]
        }
        arguments += ["-c:a", codec, "-ac", "\(channels)"]
        for (index, track) in tracks.enumerated() {
            arguments += track.metadata.flatMap { ["-metadata:s:a:\(index)", $0] }
            arguments += ["-disposition:a:\(index)", track.disposition]
        }
        try await ExternalTool.require("ffmpeg", arguments + [path])
        return path
    }
}
