import ArgumentParser
import Foundation
import Logging
import VODService

/// `vod import`: the batch path into the catalog. Each file is probed, stored in the media folder and queued;
/// a running `vod serve` on the same catalog picks the jobs up. Safe to run while the server runs.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add local video files to the catalog and queue them for transcoding.",
        discussion: "Files are hard-linked into the media folder when possible, otherwise copied; the originals stay."
    )

    @Argument(help: "The video files to import.")
    var files: [String]

    @Option(help: "The title, when importing one file (default: the file name without extension).")
    var title: String?

    @Option(help: "The description of every imported item.")
    var description: String?

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        if title != nil, files.count != 1 { throw ValidationError("--title applies to a single file.") }
    }

    func run() async throws {
        var logger = Logger(label: "vod")
        logger.logLevel = .warning
        let library = try await storage.library(logger: logger)
        var failures = 0
        for file in files {
            do {
                guard FileManager.default.isReadableFile(atPath: file) else { throw ImportFailure("cannot read the file") }
                let item = try await library.ingest(
                    file: file,
                    originalName: URL(fileURLWithPath: file).lastPathComponent,
                    title: title,
                    description: description,
                    mode: .copy
                )
                print("\(file): imported as media \(item.id) (\(item.status.rawValue))")
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("vod import: \(file): \(error)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }
}

private struct ImportFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
