import ArgumentParser
import Foundation
import VODEngine

/// `vod probe`: prints what a media file holds as JSON.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print a media file's container, duration and streams as JSON."
    )

    @Argument(help: "The media file to probe.")
    var input: String

    func run() throws {
        do {
            let probe = try MediaProber.probe(path: input)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(probe), as: UTF8.self))
        } catch {
            FileHandle.standardError.write(Data("vod probe: \(input): \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
