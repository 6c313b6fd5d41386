import Foundation
import VODConformance

/// A title on disk made by ffmpeg, with a master playlist and I-frame playlists written by hand from ffprobe's numbers.
struct TestTitle: Sendable {
    let directory: URL
    let rungs: [RungSpec]
    /// Removes the title's folder once no copy of the title is left.
    private let lease: FolderLease

    init(directory: URL, rungs: [RungSpec], removing folder: URL) {
        self.directory = directory
        self.rungs = rungs
        lease = FolderLease(folder)
    }

    var master: URL { directory.appendingPathComponent("master.m3u8") }

    /// The default conformant title: two High profile BT.709 SDR rungs with AAC-LC audio, IDR every 2 s, 8 s long.
    static let conformant: Result<TestTitle, FixtureError> = Result {
        try TestTitle.make([RungSpec(name: "240p", width: 320, height: 240), RungSpec(name: "120p", width: 160, height: 120)])
    }.mapError { FixtureError(message: "\($0)") }

    /// Encodes `rungs` and writes a correct master playlist and I-frame playlists for them.
    static func make(_ rungs: [RungSpec]) throws -> TestTitle {
        let directory = try temporaryDirectory()
        for rung in rungs {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(rung.name), withIntermediateDirectories: true)
            _ = try run("ffmpeg", rung.arguments(in: directory))
        }
        let title = TestTitle(directory: directory, rungs: rungs, removing: directory)
        try title.writeMaster()
        return title
    }

    /// Checks the title, keeping its folder alive until the check is done.
    func check(options: ConformanceOptions = ConformanceOptions()) -> ConformanceReport {
        withExtendedLifetime(lease) { HLSConformance.check(masterURL: master, options: options) }
    }

    /// The rules `check` finds broken in this title.
    func brokenRules() -> Set<ConformanceRule> {
        check().brokenRules
    }

    /// A copy of the conformant title in a new folder, for a test to break.
    static func conformantCopy() throws -> TestTitle {
        try copy(of: conformant.get())
    }

    /// A copy of `original` in a new folder, for a test to break.
    static func copy(of original: TestTitle) throws -> TestTitle {
        let folder = try temporaryDirectory()
        let directory = folder.appendingPathComponent("title")
        try FileManager.default.copyItem(at: original.directory, to: directory)
        return TestTitle(directory: directory, rungs: original.rungs, removing: folder)
    }

    func url(_ path: String) -> URL { directory.appendingPathComponent(path) }

    func text(_ path: String) throws -> String { try String(contentsOf: url(path), encoding: .utf8) }

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: url(path))
    }

    /// Replaces `old` with `new` in a file, failing when `old` is not there.
    func replace(_ old: String, with new: String, in path: String) throws {
        let content = try text(path)
        guard content.contains(old) else { throw FixtureError(message: "\(path) has no \"\(old)\"") }
        try write(content.replacingOccurrences(of: old, with: new), to: path)
    }

    /// Writes master.m3u8 and one I-frame playlist per rung, measuring what they declare independently of the checker.
    func writeMaster() throws {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let rates = try rungs.map { try bitRates($0) }
        for (rung, rate) in zip(rungs, rates).sorted(by: { $0.1.peak < $1.1.peak }) {
            let codecs = try codecString(rung) + (rung.audio ? ",mp4a.40.2" : "")
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(Int((rate.peak * 1.02).rounded(.up))),AVERAGE-BANDWIDTH=\(Int(rate.average.rounded())),"
                + "RESOLUTION=\(rung.width)x\(rung.height),FRAME-RATE=30.000,CODECS=\"\(codecs)\",VIDEO-RANGE=SDR")
            lines.append("\(rung.name)/index.m3u8")
        }
        for rung in rungs {
            let peak = try writeIFramePlaylist(rung)
            lines.append("#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(Int(peak.rounded(.up))),RESOLUTION=\(rung.width)x\(rung.height),"
                + "CODECS=\"\(try codecString(rung))\",URI=\"\(rung.name)/iframes.m3u8\"")
        }
        try write(lines.joined(separator: "\n") + "\n", to: "master.m3u8")
    }

    /// `(bytes, EXTINF)` of each segment of a rung, read from its playlist and the file sizes.
    func segmentSizes(_ rung: RungSpec) throws -> [(bytes: Int, duration: Double)] {
        let lines = try text("\(rung.name)/index.m3u8").split(separator: "\n")
        return try zip(lines, lines.dropFirst()).filter { $0.0.hasPrefix("#EXTINF:") }.map { extinf, uri in
            let duration = Double(extinf.dropFirst(8).prefix { $0 != "," }) ?? 0
            let size = try FileManager.default.attributesOfItem(atPath: url("\(rung.name)/\(uri)").path)[.size] as? Int ?? 0
            return (size, duration)
        }
    }

    /// Peak (by brute force over every run of segments, RFC 8216 §4.1) and average bit rates of a rung.
    func bitRates(_ rung: RungSpec) throws -> (peak: Double, average: Double) {
        let sizes = try segmentSizes(rung)
        let target = Double(rung.hlsTime)
        var peak = 0.0
        for start in sizes.indices {
            for end in sizes.indices where end >= start {
                let run = sizes[start...end]
                let duration = run.map(\.duration).reduce(0, +)
                if duration >= 0.5 * target && duration <= 1.5 * target {
                    peak = max(peak, Double(run.map(\.bytes).reduce(0, +)) * 8 / duration)
                }
            }
        }
        let average = Double(sizes.map(\.bytes).reduce(0, +)) * 8 / sizes.map(\.duration).reduce(0, +)
        return (peak == 0 ? average : peak, average)
    }

    /// `avc1.PPCCLL` from ffprobe's profile and level; x264 writes a zero constraint byte for High profile.
    func codecString(_ rung: RungSpec) throws -> String {
        let fields = try run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=profile,level",
                                         "-of", "default=nw=1", url("\(rung.name)/segment_000.ts").path])
        let values = Dictionary(fields.split(separator: "\n").map { line in
            let parts = line.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), String(parts.count > 1 ? parts[1] : ""))
        }, uniquingKeysWith: { first, _ in first })
        let profiles = ["High": "64", "High 10": "6e", "Main": "4d", "Constrained Baseline": "42", "Baseline": "42"]
        let constraint = values["profile"] == "Constrained Baseline" ? "c0" : "00"
        guard let profile = values["profile"].flatMap({ profiles[$0] }), let level = values["level"].flatMap({ Int($0) }) else {
            throw FixtureError(message: "ffprobe gave \(fields)")
        }
        return "avc1.\(profile)\(constraint)" + String(format: "%02x", level)
    }

    /// Writes `name/iframes.m3u8` with one byte range per keyframe, from ffprobe's packet positions; returns its peak bit rate.
    func writeIFramePlaylist(_ rung: RungSpec) throws -> Double {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:\(rung.gop / 30)", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-I-FRAMES-ONLY"]
        var peak = 0.0
        let segments = try text("\(rung.name)/index.m3u8").split(separator: "\n").filter { $0.hasSuffix(".ts") }
        for segment in segments {
            let path = url("\(rung.name)/\(segment)").path
            let csv = try run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time,pos,flags",
                                          "-of", "csv=p=0", path])
            let packets = csv.split(separator: "\n").map { $0.split(separator: ",") }.filter { $0.count >= 3 }
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            for (index, packet) in packets.enumerated() where packet[2].hasPrefix("K") {
                let start = Int(packet[1]) ?? 0
                let end = index + 1 < packets.count ? Int(packets[index + 1][1]) ?? size : size
                let duration = Double(rung.gop) / 30
                lines.append("#EXTINF:\(String(format: "%.6f", duration)),")
                lines.append("#EXT-X-BYTERANGE:\(end - start)@\(start)")
                lines.append(String(segment))
                peak = max(peak, Double(end - start) * 8 / duration)
            }
        }
        lines.append("#EXT-X-ENDLIST")
        try write(lines.joined(separator: "\n") + "\n", to: "\(rung.name)/iframes.m3u8")
        return peak
    }
}
