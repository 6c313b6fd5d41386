import VODFFmpeg

/// Holds every decoded picture of a source to the input limits, whatever the headers said at probe: a picture
/// larger than `InputPolicy.maximumSide` or `maximumPixels` (one the decoder refused to allocate, or one it
/// decoded), and, for a source without a duration, more than `InputPolicy.maximumUntimedPictures` pictures.
struct PictureLimits {
    /// Whether the source has no duration, so that its pictures are counted against the limit.
    private let untimed: Bool
    /// The pictures decoded so far.
    private(set) var pictures = 0

    init(input: InputFile) {
        untimed = InputPolicy.isUntimed(input)
    }

    /// Throws when `frame`, the next decoded picture, is beyond the limits.
    mutating func check(_ frame: Frame) throws {
        try InputPolicy.checkDecodedPicture(width: Int(frame.width), height: Int(frame.height))
        pictures += 1
        if untimed, pictures > InputPolicy.maximumUntimedPictures { throw InputPolicy.untimedLengthError }
    }

    /// Throws when `decoder` refused to allocate a picture because it has more pixels than the limit allows.
    func checkRefusals(of decoder: Codec) throws {
        guard let size = decoder.refusedPictureSize else { return }
        try InputPolicy.checkDecodedPicture(width: size.width, height: size.height)
        throw MediaError.invalid("the video holds a \(size.width)×\(size.height) picture, which could not be decoded")
    }
}
