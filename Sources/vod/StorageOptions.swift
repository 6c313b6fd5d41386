import ArgumentParser
import Foundation
import VODCatalog
import VODServer

/// Where the catalog and the media live; shared by `vod serve` and `vod import`, which must agree.
///
/// Each option falls back to an environment variable, then to a default relative to the working folder.
struct StorageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The SQLite catalog file (env VOD_DATABASE; default media/vod.sqlite).", valueName: "path"))
    var database: String?

    @Option(help: ArgumentHelp("Where originals are stored (env VOD_MEDIA_DIR; default media).", valueName: "path"))
    var mediaDir: String?

    @Option(help: ArgumentHelp("Where renditions are written, one folder per id (env VOD_OUTPUT_DIR; default hls_output).", valueName: "path"))
    var outputDir: String?

    var databasePath: String { database ?? environment("VOD_DATABASE") ?? "\(mediaDirectory)/vod.sqlite" }
    var mediaDirectory: String { mediaDir ?? environment("VOD_MEDIA_DIR") ?? "media" }
    var outputDirectory: String { outputDir ?? environment("VOD_OUTPUT_DIR") ?? "hls_output" }

    /// Opens the catalog and the folders.
    func library() throws -> MediaLibrary {
        try MediaLibrary(
            catalog: try SQLiteCatalog(path: databasePath),
            mediaDirectory: mediaDirectory,
            outputDirectory: outputDirectory
        )
    }
}

/// The value of environment variable `name`, when set and not empty.
func environment(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
}
