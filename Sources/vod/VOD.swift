import ArgumentParser

/// The `vod` command: an HLS packaging and video-on-demand service.
@main
struct VOD: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vod",
        abstract: "HLS packaging and video-on-demand: transcode to an H.264/AAC ladder and serve it.",
        subcommands: [ServeCommand.self, WorkerCommand.self, ImportCommand.self, TranscodeCommand.self, ProbeCommand.self, ValidateCommand.self]
    )
}
