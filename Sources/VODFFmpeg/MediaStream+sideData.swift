import CFFmpeg

/// What the stream's side data says: display rotation, Dolby Vision configuration, light levels.
extension MediaStream {
    /// The display-matrix rotation in degrees, counter-clockwise, or 0 when there is none.
    public var counterClockwiseRotation: Double { vod_stream_rotation(pointer) }

    /// The Dolby Vision profile and base-layer compatibility id, nil when the stream has no configuration record.
    public var dolbyVision: (profile: Int32, compatibility: Int32)? {
        var profile: Int32 = -1
        var compatibility: Int32 = -1
        vod_stream_dolby_vision(pointer, &profile, &compatibility)
        return profile >= 0 ? (profile, compatibility) : nil
    }

    /// The brightest light level the stream declares, in cd/m²: MaxCLL, else the mastering display's peak, else 0.
    public var peakLuminance: Double { vod_stream_peak_luminance(pointer) }
}
