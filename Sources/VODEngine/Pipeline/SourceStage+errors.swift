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

    /// Refuses a picture that is mostly damage: more than half of the video packets read (at least
    /// `damageSample` of them) could not be decoded. A file whose media data was overwritten after its first
    /// picture decoded that picture alone, and became a ready title of 0.03 s for a source of 10 s; a file cut
    /// short decodes what it holds without an error, and a damaged stretch is skipped, as a player would.
    func checkMostlyDecoded() throws {
        guard videoPacketCount >= Self.damageSample, 2 * videoDecodeErrorCount > videoPacketCount,
              let error = firstVideoDecodeError, let videoDecoder else { return }
        throw MediaError.invalid("the file is too damaged to decode: \(videoDecodeErrorCount) of its \(videoPacketCount) video "
            + "packets could not be decoded (\(Self.describe(error, from: videoDecoder)))")
    }

    /// How many video packets must have been read before most of them failing says the file is damaged.
    static let damageSample = 10

    /// `codec: message`, with the message FFmpeg logged when there is one: "vp9: Invalid frame marker".
    static func describe(_ error: FFmpegError, from decoder: Codec) -> String {
        let message = decoder.lastLoggedError ?? error.averror.map(FFmpegError.message) ?? error.description
        return "\(decoder.name): \(message)"
    }
}
