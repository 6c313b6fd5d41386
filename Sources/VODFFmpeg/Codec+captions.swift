import CFFmpeg

extension Codec {
    /// libavcodec's CEA-608 decoder (`cc_dec`), opened for `cc_data` triplets timed in `timeBase`: it turns the
    /// captions a video carries (`Frame.closedCaptions`) into text events.
    public static func closedCaptionDecoder(timeBase: Rational) throws -> Codec {
        guard let found = avcodec_find_decoder(AV_CODEC_ID_EIA_608) else {
            throw MediaError.unsupported("no decoder for codec eia_608")
        }
        let codec = try Codec(codec: found)
        codec.context.pointee.pkt_timebase = timeBase.avRational
        codec.context.pointee.time_base = timeBase.avRational
        try check(avcodec_open2(codec.context, found, nil), "open decoder")
        return codec
    }

    /// Decodes the `cc_data` triplets of one picture shown at `pts` (in the decoder's time base) into the caption
    /// events that ended with it, in ASS dialogue form, each with when it was shown and how long, in seconds.
    /// A CEA-608 caption is told only once something replaces or erases it.
    public func decodeClosedCaptions(_ bytes: [UInt8], pts: Int64) throws -> [(text: String, start: Double, duration: Double)] {
        let packet = try Packet()
        try check(av_new_packet(packet.pointer, Int32(bytes.count)), "allocate caption packet")
        bytes.withUnsafeBufferPointer { packet.pointer.pointee.data.update(from: $0.baseAddress!, count: bytes.count) }
        packet.pointer.pointee.pts = pts
        packet.pointer.pointee.dts = pts
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        try check(avcodec_decode_subtitle2(context, &subtitle, &got, packet.pointer), "decode captions")
        guard got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        let start = Double(subtitle.pts) / Double(vod_time_base())
        let duration = Double(subtitle.end_display_time) / 1000
        return (0..<Int(subtitle.num_rects)).compactMap { index in
            guard let rect = subtitle.rects[index], rect.pointee.type == SUBTITLE_ASS, let ass = rect.pointee.ass else {
                return nil
            }
            return (String(cString: ass), start, duration)
        }
    }
}
