import Foundation

/// What `Stills.write` put in a title's `stills/` folder, saved there as `stills.json` so the server can
/// describe the stills without looking at the pictures.
public struct StillsManifest: Sendable, Equatable, Codable {
    /// One poster file.
    public struct Poster: Sendable, Equatable, Codable {
        public var file: String
        public var width: Int
        public var height: Int
    }

    /// The folder inside a title's folder that holds its stills.
    public static let folder = "stills"
    /// The manifest's file name in `folder`.
    public static let fileName = "stills.json"
    /// The main poster: the largest of `posters`, under a name that does not depend on its size.
    public static let posterFile = "poster.jpg"
    /// The storyboard's WebVTT file.
    public static let storyboardFile = "storyboard.vtt"

    /// The time of the poster's picture in the title, in seconds.
    public var posterTime: Double
    /// The posters, narrowest first.
    public var posters: [Poster]
    /// The storyboard's layout; its sheets are `storyboard_<n>.jpg`.
    public var storyboard: StoryboardLayout

    /// The manifest saved in `titleFolder`, or nil when it has no stills.
    public static func read(titleFolder: URL) -> StillsManifest? {
        // Hinted, so that building the URL asks the file system nothing.
        let url = titleFolder.appendingPathComponent(folder, isDirectory: true).appendingPathComponent(fileName, isDirectory: false)
        // A title without stills is common (audio only, or transcoded before stills existed): one `access` is
        // far cheaper than the error `Data(contentsOf:)` builds for a missing file, ten thousand times in a list.
        guard access(url.path, R_OK) == 0 else { return nil }
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(StillsManifest.self, from: $0) }
    }

    func write(to stills: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: stills.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
