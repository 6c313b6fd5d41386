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

    func run() async throws {
        let transcoder = Transcoder(options: try encoding.transcodeOptions())
        var failures = 0
        for input in inputs {
            let name = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
            let destination = URL(fileURLWithPath: output).appendingPathComponent(name).path
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
                FileHandle.standardError.write(Data("vod transcode: \(input): failed: \(error)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }
}
