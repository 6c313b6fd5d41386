import ArgumentParser
import Foundation
import Logging
import VODCatalog
import VODPostgres
import VODService

/// Where the catalog and the media live; shared by `vod serve`, `vod worker` and `vod import`, which must agree.
///
/// Each option falls back to an environment variable, then to a default relative to the working folder.
struct StorageOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The catalog: an SQLite file, or postgres://user:password@host:port/database to share it between machines (env VOD_DATABASE; default media/vod.sqlite).",
        valueName: "path-or-url"))
    var database: String?

    @Option(help: ArgumentHelp("Where originals are stored (env VOD_MEDIA_DIR; default media).", valueName: "path"))
    var mediaDir: String?

    @Option(help: ArgumentHelp("Where renditions are written, one folder per id (env VOD_OUTPUT_DIR; default hls_output).", valueName: "path"))
    var outputDir: String?

    var databaseLocation: String { database ?? environment("VOD_DATABASE") ?? "\(mediaDirectory)/vod.sqlite" }
    var mediaDirectory: String { mediaDir ?? environment("VOD_MEDIA_DIR") ?? "media" }
    var outputDirectory: String { outputDir ?? environment("VOD_OUTPUT_DIR") ?? "hls_output" }

    /// The catalog's location for logs: a PostgreSQL URL without its password.
    var databaseDescription: String { PostgresCatalog.redacting(databaseLocation) }

    /// Opens the catalog (waiting for a PostgreSQL server that is starting) and the folders; titles it adds are
    /// written in `segmentFormat`.
    func library(logger: Logger, segmentFormat: SegmentFormat = .ts) async throws -> MediaLibrary {
        let location = databaseLocation
        let isPostgres = PostgresCatalog.isURL(location)
        let catalog: any MediaCatalog = isPostgres
            ? try await PostgresCatalog.connect(url: location, logger: logger)
            : try SQLiteCatalog(path: location)
        return try MediaLibrary(catalog: catalog, mediaDirectory: mediaDirectory, outputDirectory: outputDirectory, isShared: isPostgres,
                                segmentFormat: segmentFormat)
    }
}

/// The value of environment variable `name`, when set and not empty.
func environment(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
}
