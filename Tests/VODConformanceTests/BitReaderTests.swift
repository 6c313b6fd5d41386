import Testing
@testable import VODConformance

@Suite(.timeLimit(.minutes(2))) struct BitReaderTests {
    /// Bits 1 010 011 00100 00111 0001000 (ue 0, 1, 2, 3, 6, 7) packed into bytes, padded with ones.
    @Test func readsUnsignedExpGolombCodes() throws {
        var reader = BitReader(bits("1 010 011 00100 00111 0001000"))
        let values = try (0..<6).map { _ in try reader.unsignedGolomb() }
        #expect(values == [0, 1, 2, 3, 6, 7])
    }

    @Test func mapsSignedExpGolombCodesToAlternatingSigns() throws {
        var reader = BitReader(bits("1 010 011 00100 00101"))
        let values = try (0..<5).map { _ in try reader.signedGolomb() }
        #expect(values == [0, 1, -1, 2, -2])
    }

    @Test func readsFixedWidthFieldsAcrossByteBoundaries() throws {
        var reader = BitReader([0b1010_1100, 0b0011_1111])
        #expect(try reader.bits(3) == 0b101)
        #expect(try reader.bits(7) == 0b01100_00)
        #expect(try reader.flag() == true)
        #expect(reader.remaining == 5)
    }

    @Test func throwsInsteadOfReadingPastTheEnd() {
        var reader = BitReader([0x00])
        #expect(throws: ConformanceError.self) { try reader.unsignedGolomb() }
        var short = BitReader([0xFF])
        #expect(throws: ConformanceError.self) { try short.bits(9) }
    }

    @Test func rejectsCodesLongerThan32Bits() {
        var reader = BitReader([UInt8](repeating: 0, count: 8) + [0xFF])
        #expect(throws: ConformanceError.self) { try reader.unsignedGolomb() }
    }

    /// Packs a string of 0 and 1 (spaces ignored) into bytes, the last one padded with ones.
    private func bits(_ text: String) -> [UInt8] {
        var digits = text.filter { $0 != " " }
        while digits.count % 8 != 0 { digits.append("1") }
        return stride(from: 0, to: digits.count, by: 8).map { start in
            let chunk = digits.dropFirst(start).prefix(8)
            return UInt8(String(chunk), radix: 2)!
        }
    }
}
