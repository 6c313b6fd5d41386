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

    @Option(name: .long, help: ArgumentHelp(
        "The first segment's target duration in seconds, short so that a title is playable in seconds; from 2 (one keyframe interval) to --segment-duration.",
        valueName: "seconds"))
    var firstSegmentDuration: Double = 2

    @Option(name: .long, help: ArgumentHelp(
        "How many segments at the title's start last --first-segment-duration (1 to 30), so that a title can say it is playable after fewer seconds of media.",
        valueName: "count"))
    var shortSegments: Int = 5

    @Option(name: .long, help: ArgumentHelp(
        "The libx264 preset of the first segment, for a fast start where it is faster than --preset (superfast or slower; the same as --preset turns it off).",
        valueName: "preset"))
    var startPreset: String = "superfast"

    @Option(name: .long, help: ArgumentHelp(
        "quality: constant quality (x264 CRF, chosen per title by a short analysis) capped at each rung's bitrate; fixed: each rung at its bitrate (env VOD_RATE_CONTROL; default quality).",
        valueName: "mode"))
    var rateControl: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --rate-control quality, this CRF (0 to 51) for every title instead of one chosen per title.",
        valueName: "crf"))
    var crf: Double?

    @Option(name: .long, help: ArgumentHelp(
        "Brings every audio rendition to this loudness in LUFS (-70 to -5, e.g. -16), true peaks at most -1 dBTP (env VOD_LOUDNESS_TARGET; default off: the level is kept).",
        valueName: "LUFS"))
    var loudnessTarget: Double?

    @Option(name: .long, help: ArgumentHelp(
        "ts: MPEG-TS segments; fmp4: fragmented MP4 (CMAF) segments after an init segment per rendition (env VOD_SEGMENT_FORMAT; default ts).",
        valueName: "format"))
    var segmentFormat: String?

    @Option(name: .long, help: ArgumentHelp(
        "The ladders to encode: h264, or h264,hevc to add an HEVC ladder beside H.264, which needs --segment-format fmp4 (env VOD_CODECS; default h264).",
        valueName: "codecs"))
    var codecs: String?

    @Option(name: .long, help: ArgumentHelp("The libx265 preset of the SDR HEVC rungs, from ultrafast to veryslow.", valueName: "preset"))
    var hevcPreset: String = "superfast"

    @Option(name: .long, help: ArgumentHelp("The libx265 preset of the HDR rung, from ultrafast to veryslow (default ultrafast: an HDR title within 1.6x the SDR ladder's time on 2 cores).", valueName: "preset"))
    var hdrPreset: String = "ultrafast"

    @Option(name: .long, help: ArgumentHelp(
        "keep: an HDR source (PQ, HLG, Dolby Vision 8.x) also gets an HDR rendition in HEVC Main10 beside the SDR ladder, in fMP4 also in an MPEG-TS title; sdr: the tone-mapped SDR ladder alone (env VOD_HDR; default keep).",
        valueName: "mode"))
    var hdr: String?

    func validate() throws {
        _ = try transcodeOptions()
        let presets = TranscodeOptions.presets
        guard presets.contains(preset) else { throw ValidationError("Unknown preset '\(preset)'; use one of \(presets.joined(separator: ", ")).") }
        // ultrafast leaves out CABAC and B-frames, so its segment would need another CODECS than the rest of the rung.
        guard presets.dropFirst().contains(startPreset) else {
            throw ValidationError("Unknown start preset '\(startPreset)'; use one of \(presets.dropFirst().joined(separator: ", ")).")
        }
        guard segmentDuration >= 2, segmentDuration <= 60 else { throw ValidationError("--segment-duration must be between 2 and 60 seconds.") }
        guard firstSegmentDuration >= 2, firstSegmentDuration <= segmentDuration else {
            throw ValidationError("--first-segment-duration must be between 2 seconds and --segment-duration.")
        }
        guard (1...30).contains(shortSegments) else { throw ValidationError("--short-segments must be between 1 and 30.") }
        if let crf, !(0...51).contains(crf) { throw ValidationError("--crf must be between 0 and 51.") }
        for (flag, value) in [("HEVC", hevcPreset), ("HDR", hdrPreset)] where !presets.contains(value) {
            throw ValidationError("Unknown \(flag) preset '\(value)'; use one of \(presets.joined(separator: ", ")).")
        }
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
            if let problem = Rung.problem(with: rungs) { throw ValidationError("--ladder: \(problem).") }
        }
        return TranscodeOptions(ladder: rungs, preset: preset, segmentDuration: segmentDuration,
                                firstSegmentDuration: firstSegmentDuration, shortSegments: shortSegments, startPreset: startPreset,
                                rateControl: try resolvedRateControl(), crf: crf, loudnessTarget: try resolvedLoudnessTarget(),
                                segmentFormat: try resolvedSegmentFormat(), codecs: try resolvedCodecs(), hevcPreset: hevcPreset,
                                hdr: try resolvedHDR(), hdrPreset: hdrPreset)
    }

    /// What the flag or `VOD_HDR` names; `keep` when neither does.
    private func resolvedHDR() throws -> HDRPolicy {
        guard let text = hdr ?? environment("VOD_HDR") else { return .keep }
        guard let policy = HDRPolicy(rawValue: text) else {
            throw ValidationError("Unknown HDR mode '\(text)'; use \(HDRPolicy.allCases.map(\.rawValue).joined(separator: " or ")).")
        }
        return policy
    }

    /// The codecs the flag or `VOD_CODECS` lists; H.264 alone when neither does. H.264 is always among them, and
    /// HEVC only with fMP4 segments.
    private func resolvedCodecs() throws -> [VideoCodec] {
        guard let text = codecs ?? environment("VOD_CODECS") else { return [.h264] }
        let names = text.split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }
        let known = VideoCodec.allCases.map(\.rawValue).joined(separator: ", ")
        let listed = try names.map { name in
            guard let codec = VideoCodec(rawValue: name) else { throw ValidationError("Unknown codec '\(name)'; use \(known).") }
            return codec
        }
        guard listed.contains(.h264) else {
            throw ValidationError("--codecs must include h264: the H.264 ladder is the one every player reads.")
        }
        if listed.contains(.hevc), try resolvedSegmentFormat() != .fmp4 {
            throw ValidationError("HEVC renditions are carried in fMP4 segments only: add --segment-format fmp4.")
        }
        return VideoCodec.allCases.filter(listed.contains)
    }

    /// The loudness target the flag or `VOD_LOUDNESS_TARGET` gives; nil, the level kept, when neither does.
    private func resolvedLoudnessTarget() throws -> Double? {
        guard let target = try loudnessTarget ?? environment("VOD_LOUDNESS_TARGET").map({ text in
            guard let value = Double(text) else { throw ValidationError("VOD_LOUDNESS_TARGET must be a number of LUFS, such as -16.") }
            return value
        }) else { return nil }
        guard TranscodeOptions.loudnessTargets.contains(target) else {
            throw ValidationError("--loudness-target must be between -70 and -5 LUFS.")
        }
        return target
    }

    /// The segment format the flag or `VOD_SEGMENT_FORMAT` names; `ts` when neither does.
    private func resolvedSegmentFormat() throws -> SegmentFormat {
        guard let text = segmentFormat ?? environment("VOD_SEGMENT_FORMAT") else { return .ts }
        guard let format = SegmentFormat(rawValue: text) else {
            throw ValidationError("Unknown segment format '\(text)'; use \(SegmentFormat.allCases.map(\.rawValue).joined(separator: " or ")).")
        }
        return format
    }

    /// The rate control the flag or `VOD_RATE_CONTROL` names; `quality` when neither does.
    private func resolvedRateControl() throws -> RateControl {
        guard let text = rateControl ?? environment("VOD_RATE_CONTROL") else { return .quality }
        guard let mode = RateControl(rawValue: text) else {
            let modes = RateControl.allCases.map(\.rawValue).joined(separator: " or ")
            throw ValidationError("Unknown rate control '\(text)'; use \(modes).")
        }
        return mode
    }
}
