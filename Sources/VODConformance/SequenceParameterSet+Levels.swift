extension SequenceParameterSet {
    /// H.264 Table A-1: for each level_idc, the maximum macroblocks per second and per frame.
    private static let levelLimits: [UInt8: (macroblocksPerSecond: Int, frameSize: Int)] = [
        9: (1_485, 99), 10: (1_485, 99), 11: (3_000, 396), 12: (6_000, 396), 13: (11_880, 396),
        20: (11_880, 396), 21: (19_800, 792), 22: (20_250, 1_620), 30: (40_500, 1_620),
        31: (108_000, 3_600), 32: (216_000, 5_120), 40: (245_760, 8_192), 41: (245_760, 8_192),
        42: (522_240, 8_704), 50: (589_824, 22_080), 51: (983_040, 36_864), 52: (2_073_600, 36_864),
        60: (4_177_920, 139_264), 61: (8_355_840, 139_264), 62: (16_711_680, 139_264),
    ]

    /// Whether level_idc allows this picture size at `frameRate` frames per second (H.264 Table A-1).
    public func levelAllows(frameRate: Double) -> Bool {
        guard let limits = Self.levelLimits[levelIDC] else { return false }
        let macroblocks = ((width + 15) / 16) * ((height + 15) / 16)
        return macroblocks <= limits.frameSize && Double(macroblocks) * frameRate <= Double(limits.macroblocksPerSecond) * 1.0001
    }
}
