import Foundation
import VODCatalog

/// The catalog together with the folders that hold each item's files: the stored original in the media
/// folder and the renditions in `<output folder>/<id>`.
///
/// Shared by the HTTP API, the transcode workers and `vod import`.
public struct MediaLibrary: Sendable {
    public let catalog: any MediaCatalog
    /// The absolute path of the folder of stored originals.
    public let mediaDirectory: String
    /// The absolute path of the folder that holds one rendition folder per item.
    public let outputDirectory: String

    /// Creates the library, making both folders when they do not exist yet.
    public init(catalog: any MediaCatalog, mediaDirectory: String, outputDirectory: String) throws {
        self.catalog = catalog
        self.mediaDirectory = Self.absolute(mediaDirectory)
        self.outputDirectory = Self.absolute(outputDirectory)
        for folder in [self.mediaDirectory, self.outputDirectory] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    /// The folder the renditions of item `id` are written to.
    public func outputFolder(for id: Int64) -> String {
        "\(outputDirectory)/\(id)"
    }

    /// Removes the stored original and the renditions of `item`.
    public func removeFiles(of item: MediaItem) {
        let fileManager = FileManager.default
        try? fileManager.removeItem(atPath: outputFolder(for: item.id))
        if item.sourcePath.hasPrefix(mediaDirectory + "/") {
            try? fileManager.removeItem(atPath: item.sourcePath)
        }
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
