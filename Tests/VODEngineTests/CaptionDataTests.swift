import Foundation
import Testing
@testable import VODEngine
import VODFFmpeg

/// The CEA-608/708 bytes a picture carries: which channels and services they name, and that a frame-rate
/// conversion sends each triplet out once.
@Suite("Caption data", .timeLimit(.minutes(2)))
struct CaptionDataTests {
    /// A picture with `captions` attached.
    static func picture(_ captions: [UInt8]?) throws -> Frame {
        let frame = try Frame.video(width: 16, height: 16, format: .yuv420p)
        try frame.setClosedCaptions(captions)
        return frame
    }

    @Test func channelsComeFromTheControlCodesOfEachField() {
        var channels = CaptionChannels()
        // Padding in both fields, a DTVCC packet start, then text with no control code: no channel yet.
        channels.read([0xFC, 0x80, 0x80, 0xFD, 0x80, 0x80, 0xFF, 0x02, 0x21, 0xFC, 0xC8, 0xC5])
        #expect(channels.present == [] && channels.firstField == 0)
        // Resume Caption Loading on channel 2 of field 2 (0x1D 0x20), then on channel 1 of field 1 (0x14 0x20).
        channels.read([0xFD, 0x1D, 0x20, 0xFC, 0x94, 0x20])
        #expect(channels.present == ["CC1", "CC4"])
        #expect(channels.decodedChannel == "CC1", "cc_dec reads the field that held data first")
        // A triplet marked invalid says nothing.
        channels.read([0xF8, 0x1C, 0x20])
        #expect(channels.present == ["CC1", "CC4"])
    }

    @Test func servicesComeFromTheBlocksOfWholeDTVCCPackets() {
        var channels = CaptionChannels()
        let packet = ClosedCaptionFixture.dtvccPacket(service: 1, text: "HI", sequence: 0)
        #expect(packet == [0xFF, 0x02, 0x22, 0xFE, 0x48, 0x49], "a start pair (size 2 pairs), then service 1's block of 2")
        // Data before any packet start belongs to a packet begun earlier, and says nothing.
        channels.read([0xFE, 0x24, 0x41])
        // A packet cut over two pictures names its service once it is whole.
        channels.read([0xFC, 0x80, 0x80] + packet.prefix(3))
        #expect(channels.services == [])
        channels.read(Array(packet.dropFirst(3)))
        #expect(channels.services == [1])
        // Service 9 in an extended block header.
        channels.read(ClosedCaptionFixture.dtvccPacket(service: 9, text: "A", sequence: 1))
        // An empty block of service 4, then a block of service 3 cut short by the next packet's start; a packet of
        // a null block; a triplet marked invalid: none names a service.
        channels.read([0xFF, 0x83, 0x80, 0xFE, 0x65, 0x41, 0xFF, 0xC1, 0x00, 0xFA, 0x02, 0x22])
        #expect(channels.services == [1, 9] && channels.present == [] && channels.firstField == nil)
    }

    @Test func aChunksCaptionsKeepTheirFramesAndBytesInTheManifestsForm() {
        let pictures = [CaptionedPicture(frame: 0x1_0000_0001, bytes: [0xFC, 0x94, 0x20]),
                        CaptionedPicture(frame: 7, bytes: Array(repeating: 0xFE, count: 300))]
        let data = CaptionedPicture.encode(pictures)
        #expect(data.count == 10 + 3 + 10 + 300)
        #expect(CaptionedPicture.decode(data) == pictures)
        #expect(CaptionedPicture.decode(data.dropLast()) == [pictures[0]], "a picture cut short is left out")
    }

    @Test func aDroppedPicturesCaptionsGoOutWithTheNextAndARepeatedPictureCarriesNone() throws {
        var converter = FrameRateConverter(frameRate: FrameRate(source: Rational(30, 1), keyframeInterval: 2))
        var emitted: [(Int64, [UInt8]?)] = []
        let emit = { (frame: Frame, index: Int64) in emitted.append((index, frame.closedCaptions)) }
        // 60 fps pictures into 30 fps: the second of each pair is dropped.
        try converter.push(try Self.picture([0xFC, 0x94, 0x20]), time: 0, duration: 1.0 / 60, emit: emit)
        try converter.push(try Self.picture([0xFC, 0xC8, 0xC5]), time: 1.0 / 60, duration: 1.0 / 60, emit: emit)
        try converter.push(try Self.picture([0xFC, 0x80, 0x80, 0xFC, 0xCC, 0xCC]), time: 2.0 / 60, duration: 1.0 / 60, emit: emit)
        // Then a picture shown for three output frames.
        try converter.push(try Self.picture([0xFC, 0x94, 0x2F]), time: 3.0 / 60, duration: 0.1, emit: emit)
        try converter.finish(emit: emit)
        #expect(emitted.map(\.0) == [0, 1, 2, 3, 4])
        #expect(emitted.map(\.1) == [
            [0xFC, 0x94, 0x20],
            // The dropped picture's pair comes first; padding of the picture shown is left out.
            [0xFC, 0xC8, 0xC5, 0xFC, 0xCC, 0xCC],
            [0xFC, 0x94, 0x2F],
            nil,
            nil,
        ])
    }

    @Test func carriedCaptionsNeverExceedWhatOneSEIHolds() {
        var carry = CaptionCarry()
        carry.carry(Array(repeating: [UInt8]([0xFC, 0xC1, 0xC2]), count: 40).flatMap { $0 })
        #expect(carry.take(with: nil)?.count == 31 * 3)
        #expect(carry.take(with: nil)?.count == 9 * 3, "the rest goes out with the next picture")
        #expect(carry.take(with: nil) == nil)
    }
}
