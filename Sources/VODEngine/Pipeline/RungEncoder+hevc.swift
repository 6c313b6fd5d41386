import VODFFmpeg

extension RungEncoder {
    /// How much higher x265's CRF is than x264's for about the same picture, measured with the presets vod uses
    /// (x265 `superfast` against x264 `veryfast`, SSIM of a 720p talk at the rungs' caps): +2 scored within 0.001 of
    /// x264 at 0.72× (x264 CRF 25) and 0.81× (CRF 32) the bytes, where +5 (FFmpeg's guide's equivalence of x265's
    /// 28 and x264's 23, for x265's slower default preset) lost 0.003 to 0.006 at 0.54× and 0.63×.
    static let hevcCRFOffset = 2.0

    /// A libx265 encoder for `rung` (HEVC Main): the same rate control, keyframe grid and BT.709 SDR tags as the
    /// libx264 rungs (`makeEncoder`), with x265's CRF `hevcCRFOffset` above the title's, its parameter sets
    /// repeated before every keyframe (no global header), and `threads` worker threads. x265 carries no A/53
    /// captions through FFmpeg 5.1: `run` puts them into the encoded pictures itself (`HEVCCaptions`).
    ///
    /// An HDR rung is HEVC Main10, tagged with its source's transfer in BT.2020 (`configure`); a PQ rung also
    /// signals HDR10 and writes the source's mastering display and content light level into its SEI.
    static func makeHEVCEncoder(rung: PlannedRung, preset: String, threads: Int, frameRate: FrameRate, format: SegmentFormat,
                                bufferFill: Double) throws -> Codec {
        var parameters = ["log-level=error", "scenecut=0", "open-gop=0", "pools=\(threads)",
                          "frame-threads=\(min(threads, 2))"]
        if rung.dynamicRange == .pq { parameters += ["hdr10=1"] + (rung.lightLevels?.x265Parameters ?? []) }
        var options = ["preset": preset, "profile": rung.isHDR ? "main10" : "main", "forced-idr": "1"]
        if let crf = rung.crf {
            options["crf"] = "\(crf + hevcCRFOffset)"
            parameters.append("vbv-init=\(bufferFill)")
        }
        options["x265-params"] = parameters.joined(separator: ":")
        return try Codec.encoder(named: "libx265", options: options) { configure($0, for: rung, frameRate: frameRate, format: format) }
    }
}
