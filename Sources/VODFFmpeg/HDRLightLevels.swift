import CFFmpeg

/// What an HDR10 master says about its light: the mastering display's colour volume (SMPTE ST 2086) and the
/// content's light levels (MaxCLL, MaxFALL), as libx265 takes them.
public struct HDRLightLevels: Sendable, Equatable, Codable {
    /// x265's `master-display` value: `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)`, chromaticities in units of
    /// 0.00002 and luminance in units of 0.0001 cd/m²; nil when the source has no mastering display.
    public var masterDisplay: String?
    /// x265's `max-cll` value: `MaxCLL,MaxFALL` in cd/m²; nil when the source has no content light level.
    public var maxCLL: String?

    /// Levels given as x265 writes them (`masterDisplay`, `maxCLL`).
    public init(masterDisplay: String?, maxCLL: String?) {
        self.masterDisplay = masterDisplay
        self.maxCLL = maxCLL
    }

    /// The libx265 parameters that write these levels into the SEI of every keyframe.
    public var x265Parameters: [String] {
        (masterDisplay.map { ["master-display=\($0)"] } ?? []) + (maxCLL.map { ["max-cll=\($0)"] } ?? [])
    }

    /// Reads the levels from side data; nil when there are none.
    init?(mastering: UnsafePointer<AVMasteringDisplayMetadata>?, light: UnsafePointer<AVContentLightMetadata>?) {
        masterDisplay = mastering.flatMap { metadata -> String? in
            let m = metadata.pointee
            guard m.has_primaries != 0, m.has_luminance != 0 else { return nil }
            let point = { (x: AVRational, y: AVRational) in "(\(Self.units(x, 50_000)),\(Self.units(y, 50_000)))" }
            // FFmpeg keeps red, green, blue; x265 takes green, blue, red.
            let (red, green, blue) = m.display_primaries
            return "G" + point(green.0, green.1) + "B" + point(blue.0, blue.1) + "R" + point(red.0, red.1)
                + "WP" + point(m.white_point.0, m.white_point.1)
                + "L(\(Self.units(m.max_luminance, 10_000)),\(Self.units(m.min_luminance, 10_000)))"
        }
        maxCLL = light.flatMap { light in
            light.pointee.MaxCLL > 0 ? "\(light.pointee.MaxCLL),\(light.pointee.MaxFALL)" : nil
        }
        if masterDisplay == nil, maxCLL == nil { return nil }
    }

    private static func units(_ value: AVRational, _ scale: Int64) -> Int64 {
        value.den > 0 ? (Int64(value.num) * scale + Int64(value.den) / 2) / Int64(value.den) : 0
    }
}

extension MediaStream {
    /// The HDR10 light levels the container declares for the stream (MP4's `mdcv`/`clli`, Matroska's colour
    /// metadata); nil when it declares none.
    public var hdrLightLevels: HDRLightLevels? {
        HDRLightLevels(
            mastering: av_stream_get_side_data(pointer, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, nil)
                .map { UnsafeRawPointer($0).assumingMemoryBound(to: AVMasteringDisplayMetadata.self) },
            light: av_stream_get_side_data(pointer, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, nil)
                .map { UnsafeRawPointer($0).assumingMemoryBound(to: AVContentLightMetadata.self) }
        )
    }
}

extension Frame {
    /// The HDR10 light levels a decoded picture carries from its bitstream's SEI; nil when it carries none.
    public var hdrLightLevels: HDRLightLevels? {
        HDRLightLevels(
            mastering: av_frame_get_side_data(pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)
                .map { UnsafeRawPointer($0.pointee.data).assumingMemoryBound(to: AVMasteringDisplayMetadata.self) },
            light: av_frame_get_side_data(pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)
                .map { UnsafeRawPointer($0.pointee.data).assumingMemoryBound(to: AVContentLightMetadata.self) }
        )
    }
}
