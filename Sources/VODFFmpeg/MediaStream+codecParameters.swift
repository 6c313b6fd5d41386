import CFFmpeg

/// What the container says of the stream's coding: codec, picture and sound parameters.
extension MediaStream {
    private var parameters: AVCodecParameters { pointer.pointee.codecpar.pointee }

    /// What the stream carries.
    public var mediaType: MediaType { MediaType(parameters.codec_type) }

    /// FFmpeg's name of the stream's media type, such as `video` or `data`, when it has one.
    public var mediaTypeName: String? { av_get_media_type_string(parameters.codec_type).map { String(cString: $0) } }

    /// The codec's short name, such as `h264` or `aac`.
    public var codecName: String { String(cString: avcodec_get_name(parameters.codec_id)) }

    /// The codec profile's name, such as `High`, when FFmpeg knows it.
    public var profileName: String? {
        avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) }
    }

    /// Whether this FFmpeg has a decoder for the stream's codec.
    public var hasDecoder: Bool { avcodec_find_decoder(parameters.codec_id) != nil }

    /// Whether the stream is text subtitles (SubRip, ASS, mov_text, WebVTT, plain text), not bitmaps.
    public var isTextSubtitle: Bool { Self.textSubtitleCodecs.contains(parameters.codec_id.rawValue) }

    private static let textSubtitleCodecs: Set<UInt32> = [
        AV_CODEC_ID_SUBRIP.rawValue, AV_CODEC_ID_SRT.rawValue, AV_CODEC_ID_ASS.rawValue, AV_CODEC_ID_SSA.rawValue,
        AV_CODEC_ID_MOV_TEXT.rawValue, AV_CODEC_ID_WEBVTT.rawValue, AV_CODEC_ID_TEXT.rawValue,
    ]

    /// The coded picture width, 0 for a stream without pictures.
    public var width: Int { Int(parameters.width) }
    /// The coded picture height, 0 for a stream without pictures.
    public var height: Int { Int(parameters.height) }

    /// The shape of the picture's pixels, width over height; 0/1 or 0/0 when the container says nothing.
    public var sampleAspectRatio: Rational { Rational(parameters.sample_aspect_ratio) }

    /// The pixel format's name, such as `yuv420p10le`, when it is known.
    public var pixelFormatName: String? {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) }
    }

    /// The bits per sample of the pixel format's first component, when the format is known.
    public var bitDepth: Int? {
        av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format)).map { Int($0.pointee.comp.0.depth) }
    }

    /// Whether the pictures are full-range (JPEG) levels: tagged so, or in a `yuvj` pixel format.
    public var isFullRange: Bool {
        parameters.color_range == AVCOL_RANGE_JPEG || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P]
            .contains(AVPixelFormat(rawValue: parameters.format))
    }

    /// The colour primaries' H.273 code point (2 when unspecified).
    public var colourPrimaries: UInt32 { parameters.color_primaries.rawValue }
    /// The transfer characteristics' H.273 code point (2 when unspecified).
    public var colourTransfer: UInt32 { parameters.color_trc.rawValue }
    /// The matrix coefficients' H.273 code point (2 when unspecified).
    public var colourMatrix: UInt32 { parameters.color_space.rawValue }

    /// Which field comes first in an interlaced stream, nil for progressive or unknown.
    public var fieldOrder: FieldOrder? { FieldOrder(parameters.field_order) }

    /// The audio sample rate in Hz, 0 for a stream without sound.
    public var sampleRate: Int { Int(parameters.sample_rate) }
    /// The number of audio channels.
    public var channelCount: Int { Int(parameters.ch_layout.nb_channels) }
    /// Samples per channel in one audio frame, 0 when the codec's frames vary or the container does not say.
    public var frameSize: Int { Int(parameters.frame_size) }

    /// FFmpeg's description of the channel layout, such as `stereo` or `5.1(side)`, when it has one.
    public var channelLayoutName: String? {
        var layout = [CChar](repeating: 0, count: 64)
        let described = av_channel_layout_describe(&pointer.pointee.codecpar.pointee.ch_layout, &layout, layout.count)
        return described > 0 ? String(cBuffer: layout) : nil
    }
}
