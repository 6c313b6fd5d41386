import VODFFmpeg

extension MediaProber {
    /// Refuses a video without a duration that holds more than `InputPolicy.maximumUntimedPictures` pictures,
    /// counted by reading its packets without decoding them (a raw stream of a million skipped pictures is a few
    /// megabytes and reads in a second). Reads the input to its end, or to the first picture past the limit.
    static func checkUntimedLength(of input: InputFile) throws {
        guard InputPolicy.isUntimed(input), let video = pictureStream(of: input) else { return }
        input.discardStreams(except: [video])
        let packet = try Packet()
        var pictures = 0
        while try input.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == video.index else { continue }
            pictures += 1
            if pictures > InputPolicy.maximumUntimedPictures { throw InputPolicy.untimedLengthError }
        }
    }
}
