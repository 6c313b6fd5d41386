/// The start of an AC-3 (ATSC A/52) or E-AC-3 (A/52 Annex E) sync frame: what a checker needs for channels and timing.
public struct DolbySyncFrame: Sendable, Equatable, Encodable {
    private static let sampleRates = [48_000, 44_100, 32_000]
    /// Full-bandwidth channels for each audio coding mode (acmod).
    private static let fullChannels = [2, 1, 2, 3, 3, 4, 4, 5]
    /// AC-3 nominal bit rates in kb/s, indexed by frmsizecod / 2.
    private static let bitRates = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640]

    /// Whether the frame is E-AC-3 (bsid 11–16) rather than AC-3 (bsid up to 10).
    public let isEnhanced: Bool
    /// Samples per second.
    public let sampleRate: Int
    /// Channels including the LFE channel: 6 for 5.1.
    public let channels: Int
    /// The whole frame's length in bytes.
    public let frameLength: Int
    /// Audio samples per channel in the frame: 1536 for AC-3, 256 × blocks for E-AC-3.
    public let samples: Int

    /// The RFC 6381 codec string: `ac-3` or `ec-3`.
    public var codec: String { isEnhanced ? "ec-3" : "ac-3" }

    /// Parses the sync frame header at the start of `bytes`.
    public init(_ bytes: ArraySlice<UInt8>) throws(ConformanceError) {
        let b = Array(bytes.prefix(16))
        guard b.count >= 8, b[0] == 0x0B, b[1] == 0x77 else { throw .malformedBitstream("no AC-3 sync word") }
        let bsid = Int(b[5] >> 3)
        isEnhanced = bsid > 10
        var reader = BitReader(Array(b[2...]))
        var acmod: Int
        if isEnhanced {
            try reader.skip(5)
            frameLength = (Int(try reader.bits(11)) + 1) * 2
            let fscod = Int(try reader.bits(2))
            let code = Int(try reader.bits(2))
            if fscod == 3 {
                guard code < 3 else { throw .malformedBitstream("E-AC-3 fscod2 \(code) is reserved") }
                sampleRate = Self.sampleRates[code] / 2
                samples = 1536
            } else {
                sampleRate = Self.sampleRates[fscod]
                samples = 256 * [1, 2, 3, 6][code]
            }
            acmod = Int(try reader.bits(3))
        } else {
            try reader.skip(16)
            let fscod = Int(try reader.bits(2))
            let frmsizecod = Int(try reader.bits(6))
            guard fscod < 3, frmsizecod / 2 < Self.bitRates.count else {
                throw .malformedBitstream("AC-3 fscod \(fscod) or frmsizecod \(frmsizecod) is reserved")
            }
            let rate = Self.bitRates[frmsizecod / 2]
            frameLength = [rate * 4, (rate * 320 / 147 + frmsizecod % 2) * 2, rate * 6][fscod]
            sampleRate = Self.sampleRates[fscod]
            samples = 1536
            try reader.skip(8)
            acmod = Int(try reader.bits(3))
            if acmod & 1 != 0 && acmod != 1 { try reader.skip(2) }
            if acmod & 4 != 0 { try reader.skip(2) }
            if acmod == 2 { try reader.skip(2) }
        }
        let lfe = try reader.flag()
        channels = Self.fullChannels[acmod] + (lfe ? 1 : 0)
        guard frameLength >= 8 else { throw .malformedBitstream("AC-3 frame length \(frameLength) is too short") }
    }

    /// The frame's duration in 90 kHz ticks.
    var durationTicks: Double { Double(samples) * 90_000 / Double(sampleRate) }
}
