import Foundation

/// Checks a title's HLS output on disk against the project's HLS authoring rules.
///
/// ```swift
/// let report = HLSConformance.check(masterURL: URL(fileURLWithPath: "out/title/master.m3u8"))
/// for violation in report.violations { print(violation) }
/// let peak = report.measurements.rungs[0].peakBandwidth
/// ```
public enum HLSConformance {
    /// Loads the playlist at `masterURL`, every media and I-frame playlist it lists and every segment, and checks them.
    ///
    /// The title's folder is the folder of `masterURL`; URIs that resolve outside it are violations. When `masterURL`
    /// is a media playlist, that one rung is checked without the master playlist rules.
    public static func check(masterURL: URL, options: ConformanceOptions = ConformanceOptions()) -> ConformanceReport {
        let url = masterURL.standardizedFileURL.resolvingSymlinksInPath()
        var run = ConformanceRun(root: url.deletingLastPathComponent(), options: options)
        run.checkTitle(url)
        return ConformanceReport(violations: run.violations, measurements: run.measurements)
    }

    /// The master playlist of a title folder: the one `.m3u8` file at its top that lists variants.
    public static func findMaster(in directory: URL) throws(ConformanceError) -> URL {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadable("cannot list \(directory.path): \(error.localizedDescription)")
        }
        let masters = names.filter { $0.hasSuffix(".m3u8") }.sorted().map { directory.appendingPathComponent($0) }.filter { url in
            guard let data = try? Data(contentsOf: url), case .master = try? HLSPlaylist.parse(data) else { return false }
            return true
        }
        guard masters.count == 1, let master = masters.first else {
            throw .unreadable("\(directory.path) has \(masters.count) master playlists, not one")
        }
        return master
    }
}
