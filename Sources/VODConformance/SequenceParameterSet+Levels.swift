extension SequenceParameterSet {
    /// H.264 Table A-1: for each level_idc, the maximum macroblocks per second and per frame.
    private static let levelLimits: [UInt8: (macroblocksPerSecond: Int, frameSize: Int)] = [
        9: (1_485, 99), 10: (1_485, 99), 11: (3_000, 396), 12: (6_000, 396), 13: (11_880, 396),
        20: (11_880, 396), 21: (19_800, 792), 22: (20_250, 1_620), 30: (40_500, 1_620),
        31: (108_000, 3_600), 32: (216_000, 5_120), 40: (245_760, 8_192), 41: (245_760, 8_192),
        42: (522_240, 8_704), 50: (589_824, 22_080), 51: (983_040, 36_864), 52: (2_073_600, 36_864),
        60: (4_177_920, 139_264), 61: (8_355_840, 139_264), 62: (16_711_680, 139_264),
    ]

    /// H.265 Table A.8: for each general_level_idc, the maximum luma picture size and luma samples per second.
    private static let hevcLevelLimits: [UInt8: (pictureSize: Int, samplesPerSecond: Int)] = [
        30: (36_864, 552_960), 60: (122_880, 3_686_400), 63: (245_760, 7_372_800), 90: (552_960, 16_588_800),
        93: (983_040, 33_177_600), 120: (2_228_224, 66_846_720), 123: (2_228_224, 133_693_440),
        150: (8_912_896, 267_386_880), 153: (8_912_896, 534_773_760), 156: (8_912_896, 1_069_547_520),
        180: (35_651_584, 1_069_547_520), 183: (35_651_584, 2_139_095_040), 186: (35_651_584, 4_278_190_080),
    ]

    /// Whether the level allows this picture size at `frameRate` frames per second: H.264 Table A-1 in
    /// macroblocks, or H.265 Table A.8 in luma samples, with neither side above √(8 × the maximum size).
    public func levelAllows(frameRate: Double) -> Bool {
        if coding == .hevc {
            guard let limits = Self.hevcLevelLimits[levelIDC] else { return false }
            let samples = width * height
            let side = (8 * Double(limits.pictureSize)).squareRoot()
            return samples <= limits.pictureSize && Double(max(width, height)) <= side
                && Double(samples) * frameRate <= Double(limits.samplesPerSecond) * 1.0001
        }
        guard let limits = Self.levelLimits[levelIDC] else { return false }
        let macroblocks = ((width + 15) / 16) * ((height + 15) / 16)
        return macroblocks <= limits.frameSize && Double(macroblocks) * frameRate <= Double(limits.macroblocksPerSecond) * 1.0001
    }
}
