import VODFFmpeg

/// The closed captions a source carries in its video (ATSC A/53 user data), gathered from the output pictures as
/// the source stage emits them (or, for a split title, as its chunks kept them): which CEA-608 channels and
/// CEA-708 services are present, and the CEA-608 text as cues, read by libavcodec's `cc_dec` on the title's
/// timeline.
final class ClosedCaptionTrack {
    private let decoder: Codec
    private let frameRate: FrameRate
    private(set) var channels = CaptionChannels()
    /// The cues told so far, on the title's timeline.
    private(set) var cues: [SubtitleCue] = []

    init(frameRate: FrameRate) throws {
        self.frameRate = frameRate
        decoder = try Codec.closedCaptionDecoder(timeBase: frameRate.timeBase)
    }

    /// Reads the captions of output picture `index`; a picture whose captions do not decode is skipped, as a
    /// player would.
    func add(_ bytes: [UInt8], frame index: Int64) {
        channels.read(bytes)
        guard let field = channels.firstField else { return }
        // `cc_dec` follows the field of the first triplet it is given, so it is given that field's pairs only.
        let pairs = stride(from: 0, to: bytes.count - 2, by: 3).filter { bytes[$0] & 0x07 == 0x04 | field }
            .flatMap { bytes[$0..<$0 + 3] }
        guard !pairs.isEmpty, let events = try? decoder.decodeClosedCaptions(pairs, pts: index) else { return }
        for event in events {
            guard let text = SubtitleCue.text(ofDialogue: event.text), event.duration > 0 else { continue }
            cues.append(SubtitleCue(start: event.start, end: event.start + event.duration, text: text))
        }
    }

    /// Ends the caption still shown when the title ends at output picture `index`: a CEA-608 caption is told only
    /// once something erases it, so the end of the title erases it (Erase Displayed Memory, 0x14 0x2C in field 1,
    /// 0x15 0x2C in field 2, with odd parity).
    func finish(at index: Int64) {
        guard let field = channels.firstField else { return }
        add([0xFC | field, field == 0 ? 0x94 : 0x15, 0x2C], frame: index)
    }
}
