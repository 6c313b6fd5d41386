/// The fixed part of an AAC ADTS frame header.
public struct ADTSHeader: Sendable, Equatable, Encodable {
    static let sampleRates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]

    /// The MPEG-4 audio object type, profile + 1: 2 is AAC-LC, the `N` of `mp4a.40.N`.
    public let objectType: Int
    /// Samples per second.
    public let sampleRate: Int
    /// channel_configuration: 2 for stereo.
    public let channels: Int
    /// The whole frame's length in bytes, header included.
    public let frameLength: Int
    /// AAC frames of 1024 samples each in this ADTS frame.
    public let rawDataBlocks: Int

    /// Parses the 7-byte header at the start of `bytes`.
    public init(_ bytes: ArraySlice<UInt8>) throws(ConformanceError) {
        let b = Array(bytes.prefix(7))
        guard b.count == 7, b[0] == 0xFF, b[1] & 0xF0 == 0xF0 else {
            throw .malformedBitstream("no ADTS sync word")
        }
        let rateIndex = Int(b[2] >> 2) & 0x0F
        guard rateIndex < Self.sampleRates.count else {
            throw .malformedBitstream("ADTS sampling_frequency_index \(rateIndex) is reserved")
        }
        objectType = Int(b[2] >> 6) + 1
        sampleRate = Self.sampleRates[rateIndex]
        channels = Int(b[2] & 1) << 2 | Int(b[3] >> 6)
        frameLength = Int(b[3] & 3) << 11 | Int(b[4]) << 3 | Int(b[5] >> 5)
        rawDataBlocks = Int(b[6] & 3) + 1
        let headerLength = b[1] & 1 == 1 ? 7 : 9
        guard frameLength >= headerLength else { throw .malformedBitstream("ADTS frame_length \(frameLength) is too short") }
    }

    /// The frame's duration in 90 kHz ticks.
    var durationTicks: Double { Double(rawDataBlocks * 1024) * 90_000 / Double(sampleRate) }
}

extension ADTSHeader {
    /// The object type, sample rate and channel configuration of an MP4 AudioSpecificConfig (its first two
    /// bytes), as an ADTS header of one raw data block would give them; nil with an escaped sample rate.
    init?(audioSpecificConfig bytes: ArraySlice<UInt8>) {
        let b = Array(bytes)
        guard b.count == 2 else { return nil }
        let rateIndex = Int(b[0] & 0x07) << 1 | Int(b[1] >> 7)
        guard rateIndex < Self.sampleRates.count else { return nil }
        objectType = Int(b[0] >> 3)
        sampleRate = Self.sampleRates[rateIndex]
        channels = Int(b[1] >> 3) & 0x0F
        frameLength = 0
        rawDataBlocks = 1
    }
}
