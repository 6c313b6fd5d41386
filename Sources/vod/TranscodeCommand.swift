import ArgumentParser
import Foundation
import VODEngine

/// `vod transcode`: batch-transcodes files into HLS ladders, each into its own folder.
struct TranscodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcode",
        abstract: "Transcode media files into HLS ladders (master, media and I-frame playlists, TS segments).",
        discussion: "Each input goes into OUTPUT/<input name without extension>/, which holds master.m3u8."
    )

    @Argument(help: "The media files to transcode.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The folder that receives one rendition folder per input.")
    var output: String = "hls_output"

    @OptionGroup var encoding: EncodingOptions

    /// Each input's rendition folder, `OUTPUT/<input name without extension>`.
    func destination(of input: String) -> String {
        URL(fileURLWithPath: output).appendingPathComponent(URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent).path
    }

    /// Refuses what would lose a file: two inputs with one rendition folder, and a destination that holds anything
    /// but a rendition (a folder without `master.m3u8`, or a file: an input without an extension in OUTPUT is its
    /// own destination). A folder of the same name was replaced by the rendition, its files gone.
    func validate() throws {
        var outputIsFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &outputIsFolder), !outputIsFolder.boolValue {
            throw ValidationError("--output \(output) is a file, not a folder.")
        }
        var inputsByDestination: [String: String] = [:]
        for input in inputs {
            let destination = destination(of: input)
            if let other = inputsByDestination.updateValue(input, forKey: destination) {
                throw ValidationError("\(other) and \(input) would both be written into \(destination); rename one of them.")
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder) else { continue }
            guard isFolder.boolValue, FileManager.default.fileExists(atPath: destination + "/master.m3u8") else {
                throw ValidationError("\(destination) exists and is not a rendition vod wrote (it has no master.m3u8): "
                    + "move it away or choose another --output.")
            }
        }
    }

    /// What went wrong, in words: a file system error as the system says it, with the path it names, rather
    /// than Foundation's dump of its domain, code and user info.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? CocoaError else { return "\(error)" }
        let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? error.filePath
        return path.map { "\(error.localizedDescription) (\($0))" } ?? error.localizedDescription
    }

    func run() async throws {
        let transcoder = Transcoder(options: try encoding.transcodeOptions())
        var failures = 0
        for input in inputs {
            let name = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
            let destination = destination(of: input)
            let display = ProgressDisplay(label: name)
            let started = Date()
            do {
                let result = try await transcoder.transcode(input: input, outputDirectory: destination) {
                    display.update($0)
                }
                display.finish()
                print(SummaryTable(result: result, elapsed: Date().timeIntervalSince(started)).text)
            } catch {
                display.finish()
                failures += 1
                FileHandle.standardError.write(Data("vod transcode: \(input): failed: \(Self.describe(error))\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }
}
