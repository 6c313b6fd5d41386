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
    /// A 640×360 Matroska film with one AAC track per tone, as films and broadcasts carry several languages.
    /// Returns its path.
    public static func multiTrack(_ tracks: [ToneTrack], duration: Double = 8, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("tracks.mkv").path
        var arguments = ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=\(duration)"]
        for track in tracks {
            arguments += ["-f", "lavfi", "-i", "sine=frequency=\(track.frequency):sample_rate=48000:duration=\(duration)"]
        }
        arguments += ["-map", "0:v"] + tracks.indices.flatMap { ["-map", "\($0 + 1):a"] }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"]
        for (index, track) in tracks.enumerated() {
            arguments += track.metadata.flatMap { ["-metadata:s:a:\(index)", $0] }
            arguments += ["-disposition:a:\(index)", track.disposition]
        }
        try ExternalTool.require("ffmpeg", arguments + [path])
        return path
    }
}
