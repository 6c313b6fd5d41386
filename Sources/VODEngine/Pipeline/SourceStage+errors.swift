import Foundation
import VODFFmpeg

extension SourceStage {
    /// Why no picture came out: the decoder's own complaint, or a file that ends first.
    func noPictureError() -> MediaError {
        guard let error = firstVideoDecodeError, let videoDecoder else {
            return MediaError.invalid("the file ends before the first video frame")
        }
        return MediaError.invalid("the video stream could not be decoded (\(Self.describe(error, from: videoDecoder)))")
    }

    /// `codec: message`, with the message FFmpeg logged when there is one: "vp9: Invalid frame marker".
    static func describe(_ error: FFmpegError, from decoder: Codec) -> String {
        let message = decoder.lastLoggedError ?? error.averror.map(FFmpegError.message) ?? error.description
        return "\(decoder.name): \(message)"
    }
}
