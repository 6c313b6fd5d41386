import VODFFmpeg

/// The bounds that hold while a file is read and decoded, not only while its headers are probed: a header can
/// lie, a picture size can change mid-stream, and a file without a duration can hold any number of pictures.
extension InputPolicy {
    /// The bounds of every open of a source and every decoder of its streams: no picture over `maximumPixels`
    /// is allocated (not even while FFmpeg analyses the streams), at most 5 MB and 30 s of media are read to
    /// find the streams, and a file may declare at most 64 streams.
    public static let decodeLimits = DecodeLimits(
        maximumPixels: maximumPixels, probeBytes: 5_000_000, analyzeMicroseconds: 30_000_000, maximumStreams: 64
    )

    /// The most pictures a video without a duration may hold: an hour at 30 frames a second. Such a file (a raw
    /// elementary stream) says nothing of its length, so neither the probe nor the job's time limit can bound
    /// it; a small file of skipped pictures would otherwise hold a worker for hours.
    public static let maximumUntimedPictures = 108_000

    /// Whether `input` has no trustworthy duration: none at all, or a raw elementary stream's estimate.
    static func isUntimed(_ input: InputFile) -> Bool {
        input.duration == nil || elementaryStreamFormats.contains(input.formatName)
    }

    /// The refusal of a source without a duration that holds more than `maximumUntimedPictures` pictures.
    static var untimedLengthError: MediaError {
        MediaError.invalid(
            "the video has no duration and holds more than \(maximumUntimedPictures) pictures "
                + "(an hour at 30 frames a second), the most this service reads from such a file")
    }

    /// Throws `MediaError.invalid` for a decoded picture larger than `maximumSide` or `maximumPixels`: the
    /// stream's size changed mid-stream. The message does not count the pictures before it: with frame threads, how
    /// many the decoder has returned when it refuses a picture depends on their timing (99 or 100 of the same file).
    static func checkDecodedPicture(width: Int, height: Int) throws {
        guard max(width, height) <= maximumSide, width * height <= maximumPixels else {
            throw MediaError.invalid(
                "the video changes to \(width)×\(height) pixels mid-stream, more than the 8192×4320 this service transcodes")
        }
    }
}
