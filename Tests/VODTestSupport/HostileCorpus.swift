import Foundation

/// A corpus of broken, unusual, lying and disguised "videos", made on the fly with Debian's ffmpeg and byte
/// patches, so that nothing but code is committed. Every file is named `.mp4`, as an attacker would name it.
public enum HostileCorpus {
    /// What the service may do with a file; a test accepts any outcome in `CorpusFile.allowed`.
    public enum Outcome: String, Sendable, CaseIterable {
        /// A conformant HLS title: a ladder, or the audio renditions of an audio-only file.
        case ladder
        /// Refused at upload with a 4xx JSON error.
        case refused
        /// Accepted, then failed with a human-readable reason.
        case failed
    }

    /// One file of the corpus.
    public struct CorpusFile: Sendable, CustomStringConvertible {
        public var name: String
        public var allowed: Set<Outcome>
        /// Text the refusal or failure reason must contain, when the cause is known.
        public var reasonContains: String?
        let make: @Sendable (URL) async throws -> Void

        public var description: String { name }

        /// Writes the file into `directory` and returns its path.
        public func write(in directory: URL) async throws -> String {
            let url = directory.appendingPathComponent("\(name).mp4")
            try await make(url)
            return url.path
        }
    }

    /// A URL nothing listens on: a server that fetched it would show a `connect` to port 9.
    public static let trapURL = "http://127.0.0.1:9/stolen.ts"

    /// Every file, in a fixed order.
    public static let files: [CorpusFile] = [
        CorpusFile(name: "zero-bytes", allowed: [.refused], reasonContains: "the file is empty") { url in
            try Data().write(to: url)
        },
        CorpusFile(name: "random-bytes", allowed: [.refused], reasonContains: "not a playable video") { url in
            try Data(noise(count: 65_536, seed: 7)).write(to: url)
        },
        CorpusFile(name: "text", allowed: [.refused], reasonContains: "text") { url in
            try Data(String(repeating: "This is a letter, not a video.\n", count: 40).utf8).write(to: url)
        },
        CorpusFile(name: "cut-in-half", allowed: [.refused], reasonContains: "not a playable video") { url in
            let whole = try await clip(SyntheticClip(width: 320, height: 240, duration: 2), beside: url)
            try whole.prefix(whole.count / 2).write(to: url)
        },
        CorpusFile(name: "corrupt-packets", allowed: [.ladder, .failed]) { url in
            var bytes = try await clip(SyntheticClip(width: 320, height: 240, duration: 3), beside: url)
            let mdat = try offset(of: "mdat", in: bytes)
            let middle = mdat + (bytes.count - mdat) / 3
            bytes.replaceSubrange(middle..<(middle + 4096), with: noise(count: 4096, seed: 11))
            try bytes.write(to: url)
        },
        // The media data overwritten after its first picture: one picture decodes of about 90.
        CorpusFile(name: "overwritten-media-data", allowed: [.failed], reasonContains: "too damaged to decode") { url in
            var bytes = try await clip(SyntheticClip(width: 320, height: 240, duration: 3), beside: url)
            let mdat = try offset(of: "mdat", in: bytes)
            let end = mdat - 4 + Int(bytes[(mdat - 4)..<mdat].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let start = mdat + 4100
            bytes.replaceSubrange(start..<end, with: noise(count: end - start, seed: 13))
            try bytes.write(to: url)
        },
        CorpusFile(name: "audio-only", allowed: [.ladder]) { url in
            try await ffmpeg(["-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac", "-f", "mp4"], url)
        },
        CorpusFile(name: "video-only", allowed: [.ladder]) { url in
            try await Data(contentsOf: URL(fileURLWithPath: SyntheticClip(width: 320, height: 240, duration: 2, hasAudio: false)
                .make(in: scratch(beside: url)))).write(to: url)
        },
        CorpusFile(name: "still-png", allowed: [.refused], reasonContains: "not a playable video") { url in
            try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", "-f", "image2", "-c:v", "png"], url)
        },
        CorpusFile(name: "still-jpeg", allowed: [.refused], reasonContains: "not a playable video") { url in
            try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", "-f", "image2", "-c:v", "mjpeg"], url)
        },
        CorpusFile(name: "one-by-one", allowed: [.refused, .failed], reasonContains: "1×1") { url in
            try await ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=2x2:r=10:d=1", "-vf", "scale=1:1", "-c:v", "ffv1", "-f", "matroska"], url)
        },
        CorpusFile(name: "ten-bit", allowed: [.ladder]) { url in
            var source = SyntheticClip(width: 320, height: 240, duration: 2)
            source.pixelFormat = "yuv420p10le"
            try await Data(contentsOf: URL(fileURLWithPath: source.make(in: scratch(beside: url)))).write(to: url)
        },
        CorpusFile(name: "interlaced", allowed: [.ladder]) { url in
            var source = SyntheticClip(width: 320, height: 240, duration: 2)
            source.extraArguments = ["-vf", "tinterlace=interleave_top", "-flags", "+ildct+ilme"]
            try await Data(contentsOf: URL(fileURLWithPath: source.make(in: scratch(beside: url)))).write(to: url)
        },
        CorpusFile(name: "variable-frame-rate", allowed: [.ladder]) { url in
            var source = SyntheticClip(width: 320, height: 240, duration: 3)
            source.extraArguments = ["-vf", "select='lt(n\\,30)+not(mod(n\\,3))'", "-fps_mode", "vfr"]
            try await Data(contentsOf: URL(fileURLWithPath: source.make(in: scratch(beside: url)))).write(to: url)
        },
        CorpusFile(name: "rotated", allowed: [.ladder]) { url in
            var source = SyntheticClip(width: 320, height: 240, duration: 2)
            source.rotationTag = 90
            try await Data(contentsOf: URL(fileURLWithPath: source.make(in: scratch(beside: url)))).write(to: url)
        },
        CorpusFile(name: "mp4-header-claims-16384", allowed: [.ladder, .failed, .refused]) { url in
            var bytes = try await clip(SyntheticClip(width: 320, height: 240, duration: 2), beside: url)
            try patchSampleEntrySize(&bytes, width: 16384, height: 16384)
            let tkhd = try offset(of: "tkhd", in: bytes)
            for (index, value) in [16384, 16384].enumerated() {
                put(UInt32(value << 16), at: tkhd + 80 + 4 * index, in: &bytes)
            }
            try bytes.write(to: url)
        },
        CorpusFile(name: "raw-header-claims-16384", allowed: [.refused], reasonContains: "not a playable video") { url in
            try await url.write(rawVideoClaiming: 16384)
        },
        CorpusFile(name: "raw-header-claims-12000", allowed: [.refused], reasonContains: "12000×12000") { url in
            try await url.write(rawVideoClaiming: 12000)
        },
        CorpusFile(name: "absurd-duration", allowed: [.refused], reasonContains: "hours") { url in
            var bytes = try await clip(SyntheticClip(width: 320, height: 240, duration: 2), beside: url)
            put(0xFFFF_FFF0, at: try offset(of: "mvhd", in: bytes) + 20, in: &bytes)
            try bytes.write(to: url)
        },
        disguise("hls-playlist-etc-passwd", "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n"),
        disguise("hls-playlist-url", "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n\(trapURL)\n#EXT-X-ENDLIST\n"),
        disguise("ffconcat-etc-passwd", "ffconcat version 1.0\nfile '/etc/passwd'\nfile '\(trapURL)'\n"),
        disguise("sdp-url", "v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video 9 RTP/AVP 96\na=rtpmap:96 H264/90000\n"),
    ]

    /// `count` pseudo-random bytes, the same for the same seed, so that every run repeats.
    public static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private static func disguise(_ name: String, _ text: String) -> CorpusFile {
        CorpusFile(name: name, allowed: [.refused], reasonContains: "it was not opened") { url in
            try Data(text.utf8).write(to: url)
        }
    }

    /// The bytes of a synthetic clip made in a scratch folder beside `url`.
    private static func clip(_ source: SyntheticClip, beside url: URL) async throws -> Data {
        try await Data(contentsOf: URL(fileURLWithPath: source.make(in: scratch(beside: url))))
    }

    private static func scratch(beside url: URL) throws -> URL {
        let folder = url.deletingLastPathComponent().appendingPathComponent(".make-\(url.lastPathComponent)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func ffmpeg(_ arguments: [String], _ url: URL) async throws {
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-y"] + arguments + [url.path])
    }

    /// The offset of a box's four-character type in `bytes`.
    static func offset(of box: String, in bytes: Data, from start: Int = 0) throws -> Int {
        guard let range = bytes.range(of: Data(box.utf8), in: (bytes.startIndex + start)..<bytes.endIndex) else {
            throw ToolError(description: "no \(box) box")
        }
        return range.lowerBound - bytes.startIndex
    }

    /// Rewrites the width and height of the first sample entry of the first `stsd` box.
    static func patchSampleEntrySize(_ bytes: inout Data, width: Int, height: Int) throws {
        let stsd = try offset(of: "stsd", in: bytes)
        put16(UInt16(width), at: stsd + 44, in: &bytes)
        put16(UInt16(height), at: stsd + 46, in: &bytes)
    }

    static func put(_ value: UInt32, at offset: Int, in bytes: inout Data) {
        for index in 0..<4 { bytes[bytes.startIndex + offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }

    static func put16(_ value: UInt16, at offset: Int, in bytes: inout Data) {
        bytes[bytes.startIndex + offset] = UInt8(value >> 8)
        bytes[bytes.startIndex + offset + 1] = UInt8(truncatingIfNeeded: value)
    }
}

extension URL {
    /// A QuickTime file of 16×16 raw RGB pictures whose sample entry claims `side`×`side`: nothing in the stream
    /// contradicts the header, so FFmpeg believes it.
    fileprivate func write(rawVideoClaiming side: Int) async throws {
        let raw = deletingLastPathComponent().appendingPathComponent(".raw-\(lastPathComponent).mov")
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=16x16:rate=5:duration=1",
                                            "-c:v", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        var bytes = try Data(contentsOf: raw)
        try HostileCorpus.patchSampleEntrySize(&bytes, width: side, height: side)
        try bytes.write(to: self)
    }
}
