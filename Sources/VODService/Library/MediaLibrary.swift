import Foundation
import VODCatalog
import VODEngine

/// The catalog together with the folders that hold each item's files: the stored original in the media
/// folder and the renditions in `<output folder>/<id>`.
///
/// Shared by the HTTP API, the transcode workers and `vod import`.
public struct MediaLibrary: Sendable {
    public let catalog: any MediaCatalog
    /// Where the changes of items are recorded as status events.
    public let events: EventRecorder
    /// The absolute path of the folder of stored originals.
    public let mediaDirectory: String
    /// The absolute path of the folder that holds one rendition folder per item.
    public let outputDirectory: String

    /// Creates the library, making both folders when they do not exist yet.
    /// Whether other processes on other machines share the catalog and these folders (a PostgreSQL catalog):
    /// then start-up leaves other processes' staging files alone, since their owners may be at work.
    public let isShared: Bool
    /// How the segments of titles ingested from now on are served: with `.aes128`, each gets its own key.
    public var segmentEncryption: SegmentEncryption = .none

    /// The segment container of the titles it adds (`ingest`), which the workers write whatever their own setting.
    public let segmentFormat: SegmentFormat

    public init(catalog: any MediaCatalog, mediaDirectory: String, outputDirectory: String, isShared: Bool = false,
                segmentFormat: SegmentFormat = .ts) throws {
        self.isShared = isShared
        self.segmentFormat = segmentFormat
        self.catalog = catalog
        self.events = EventRecorder(catalog: catalog)
        self.mediaDirectory = Self.absolute(mediaDirectory)
        self.outputDirectory = Self.absolute(outputDirectory)
        for folder in [self.mediaDirectory, self.outputDirectory] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    /// The folder the renditions of item `id` are written to by the claim with lease token `generation`:
    /// `<id>` for the first, `<id>-<generation>` for later ones, so that a worker whose lease was taken over
    /// never writes where the new holder publishes.
    public func outputFolder(for id: Int64, generation: Int64 = 1) -> String {
        generation <= 1 ? "\(outputDirectory)/\(id)" : "\(outputDirectory)/\(id)-\(generation)"
    }

    /// The item id of an output folder name, `<id>` or `<id>-<generation>`, staging folders included.
    static func itemID(ofOutputFolder name: String) -> Int64? {
        let stem = name.hasPrefix(".") ? String(name.dropFirst()) : name
        let digits = stem.prefix { $0.isNumber }
        guard let id = Int64(digits), stem.dropFirst(digits.count).first.map({ "-.".contains($0) }) ?? true else { return nil }
        return id
    }

    /// Removes the output of leases that ran out: their staging folders and unpublished renditions.
    public func removeOutput(of leases: [ExpiredLease]) {
        for lease in leases {
            let folder = (outputFolder(for: lease.id, generation: lease.token) as NSString).lastPathComponent
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: outputDirectory)) ?? []
            for name in entries where name == folder || name.hasPrefix(".\(folder)\(OutputFolder.stagingMarker)") {
                try? FileManager.default.removeItem(atPath: "\(outputDirectory)/\(name)")
            }
        }
    }

    /// Removes the stored original and the renditions of `item`, of every attempt.
    public func removeFiles(of item: MediaItem) {
        let fileManager = FileManager.default
        for name in (try? fileManager.contentsOfDirectory(atPath: outputDirectory)) ?? []
        where !name.hasPrefix(".") && Self.itemID(ofOutputFolder: name) == item.id {
            Self.removeTree("\(outputDirectory)/\(name)")
        }
        if item.sourcePath.hasPrefix(mediaDirectory + "/") {
            try? fileManager.removeItem(atPath: item.sourcePath)
        }
    }

    /// Removes the folder at `path` with everything in it, trying again (up to three times in all) while it is
    /// still there: a removal that fails half-way, as one did once in a full test run, leaves no files behind.
    static func removeTree(_ path: String) {
        for _ in 0..<3 {
            do {
                try FileManager.default.removeItem(atPath: path)
                return
            } catch {
                guard FileManager.default.fileExists(atPath: path) else { return }
            }
        }
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
