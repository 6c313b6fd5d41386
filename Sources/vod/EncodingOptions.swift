import ArgumentParser
import VODEngine

/// Options that shape the renditions, shared by every command that transcodes.
struct EncodingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Comma-separated rungs NAME:WIDTHxHEIGHT@BITRATE, e.g. 720p:1280x720@800k,1080p:1920x1080@2800k.",
            valueName: "rungs"
        )
    )
    var ladder: String?

    @Option(name: .long, help: "The libx264 preset, from ultrafast to veryslow.")
    var preset: String = "veryfast"

    @Option(name: .long, help: "The target segment duration in seconds.")
    var segmentDuration: Double = 6

    func validate() throws {
        _ = try transcodeOptions()
        let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
        guard presets.contains(preset) else { throw ValidationError("Unknown preset '\(preset)'; use one of \(presets.joined(separator: ", ")).") }
        guard segmentDuration >= 2, segmentDuration <= 60 else { throw ValidationError("--segment-duration must be between 2 and 60 seconds.") }
    }

    /// The engine options these flags describe.
    func transcodeOptions() throws -> TranscodeOptions {
        var rungs = Rung.defaultLadder
        if let ladder {
            rungs = try ladder.split(separator: ",").map { text in
                guard let rung = Rung(specification: String(text)) else {
                    throw ValidationError("Invalid rung '\(text)'; expected NAME:WIDTHxHEIGHT@BITRATE such as 720p:1280x720@800k.")
                }
                return rung
            }
            guard !rungs.isEmpty else { throw ValidationError("--ladder needs at least one rung.") }
        }
        return TranscodeOptions(ladder: rungs, preset: preset, segmentDuration: segmentDuration)
    }
}
