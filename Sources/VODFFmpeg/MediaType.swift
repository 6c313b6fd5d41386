import CFFmpeg

/// What a stream carries, as FFmpeg's `AVMediaType` tells it.
public enum MediaType: Sendable, Equatable {
    case video
    case audio
    case subtitle
    /// Data, attachments and anything else that is not picture, sound or text.
    case other

    init(_ type: AVMediaType) {
        switch type {
        case AVMEDIA_TYPE_VIDEO: self = .video
        case AVMEDIA_TYPE_AUDIO: self = .audio
        case AVMEDIA_TYPE_SUBTITLE: self = .subtitle
        default: self = .other
        }
    }

    /// The type FFmpeg looks for; `other` looks for data streams.
    var avMediaType: AVMediaType {
        switch self {
        case .video: AVMEDIA_TYPE_VIDEO
        case .audio: AVMEDIA_TYPE_AUDIO
        case .subtitle: AVMEDIA_TYPE_SUBTITLE
        case .other: AVMEDIA_TYPE_DATA
        }
    }
}
