import VODFFmpeg

extension HDRLightLevels {
    /// The MP4 boxes that declare these levels in an HDR rung's sample entry, as Apple's players and FFmpeg's MP4
    /// reader take them: `mdcv` (SMPTE ST 2086 mastering display: green, blue and red primaries and the white point
    /// in units of 0.00002, the maximum and minimum luminance in units of 0.0001 cd/m², the order and units of the
    /// SEI and of `masterDisplay`) and `clli` (MaxCLL, MaxFALL). Empty for levels that cannot be read as numbers.
    var sampleEntryBoxes: [UInt8] {
        let display = masterDisplay.map(Self.numbers) ?? []
        let light = maxCLL.map(Self.numbers) ?? []
        var boxes: [UInt8] = []
        if display.count == 10 {
            boxes += Self.box("mdcv", display.prefix(8).flatMap { Self.bigEndian($0, bytes: 2) }
                + display.suffix(2).flatMap { Self.bigEndian($0, bytes: 4) })
        }
        if light.count == 2 {
            boxes += Self.box("clli", light.flatMap { Self.bigEndian($0, bytes: 2) })
        }
        return boxes
    }

    /// The decimal numbers of `text`, in order.
    private static func numbers(_ text: String) -> [UInt64] {
        text.split(whereSeparator: { !$0.isNumber }).compactMap { UInt64($0) }
    }

    private static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        bigEndian(UInt64(8 + body.count), bytes: 4) + Array(type.utf8) + body
    }

    private static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
