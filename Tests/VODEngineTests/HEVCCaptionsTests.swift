import Testing
@testable import VODEngine

/// The A/53 prefix SEI an HEVC rung's pictures get their captions in (`HEVCCaptions`), byte by byte.
@Suite struct HEVCCaptionsTests {
    static let ccData: [UInt8] = [0xFC, 0x94, 0x2C, 0xFD, 0x80, 0x80]

    @Test func theSEIIsAnA53MessageInAPrefixSEIUnit() {
        let unit = HEVCCaptions.seiUnit(Self.ccData)
        let message: [UInt8] = [0xB5, 0x00, 0x31, 0x47, 0x41, 0x39, 0x34, 0x03, 0x42, 0xFF] + Self.ccData + [0xFF]
        #expect(unit == [0x4E, 0x01, 0x04, UInt8(message.count)] + message + [0x80])
    }

    @Test func zeroBytesNeverMakeAStartCode() {
        #expect(HEVCCaptions.preventingEmulation([0, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 4]) == [0, 0, 3, 1, 0, 0, 3, 0, 0, 3, 0, 3, 0, 0, 4])
        let padding = HEVCCaptions.seiUnit([0xFC, 0x00, 0x00, 0x00, 0x80, 0x80])
        #expect(padding.count > HEVCCaptions.seiUnit(Self.ccData).count)
        #expect(!padding.indices.dropLast(2).contains { padding[$0] == 0 && padding[$0 + 1] == 0 && padding[$0 + 2] <= 2 })
    }

    @Test func theSEIGoesBeforeTheFirstSliceAfterTheParameterSets() {
        let vps: [UInt8] = [0, 0, 0, 1, 0x40, 0x01, 0xAA]
        let prefixSEI: [UInt8] = [0, 0, 1, 0x4E, 0x01, 0xBB]
        let slices: [UInt8] = [0, 0, 0, 1, 0x26, 0x01, 0xCC, 0, 0, 1, 0x02, 0x01, 0xDD]
        let payload = vps + prefixSEI + slices
        let out = payload.withUnsafeBufferPointer { HEVCCaptions.inserting(Self.ccData, into: $0) }
        #expect(out == vps + prefixSEI + [0, 0, 0, 1] + HEVCCaptions.seiUnit(Self.ccData) + slices)
    }
}
