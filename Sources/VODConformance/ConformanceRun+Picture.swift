extension ConformanceRun {
    /// Names of the H.264 VUI colour codes (Table E-3, E-4, E-5) a violation is likely to show.
    private static let primaryNames: [UInt8: String] = [
        1: "BT.709", 2: "unspecified", 5: "BT.601 625", 6: "BT.601 525", 9: "BT.2020", 11: "DCI-P3", 12: "Display P3",
    ]
    private static let transferNames: [UInt8: String] = [
        1: "BT.709", 2: "unspecified", 6: "BT.601", 8: "linear", 13: "sRGB", 14: "BT.2020 10-bit", 15: "BT.2020 12-bit",
        16: "PQ", 18: "HLG",
    ]
    private static let matrixNames: [UInt8: String] = [
        0: "RGB", 1: "BT.709", 2: "unspecified", 5: "BT.601 625", 6: "BT.601 525", 9: "BT.2020 non-constant",
        10: "BT.2020 constant", 14: "ICtCp",
    ]

    /// The picture rules of a rung's SPS: BT.709 colour, limited range and square pixels.
    mutating func checkPicture(_ rung: RungAnalysis) {
        guard let sps = rung.sps else { return }
        if let primaries = sps.colourPrimaries, let transfer = sps.transferCharacteristics, let matrix = sps.matrixCoefficients {
            let found = [("colour primaries", primaries, Self.primaryNames), ("transfer", transfer, Self.transferNames),
                         ("matrix", matrix, Self.matrixNames)]
            let wrong = found.filter { $0.1 != 1 }.map { name, code, names in "\(name) \(code)" + (names[code].map { " (\($0))" } ?? "") }
            if !wrong.isEmpty {
                flag(.videoColour, rung.file, wrong.joined(separator: ", ") + " where BT.709 (1) is required")
            }
        } else {
            flag(.videoColour, rung.file, "the SPS VUI has no colour description where BT.709 (1) primaries, transfer and matrix are required")
        }
        if sps.fullRange {
            flag(.videoRange, rung.file, "video_full_range_flag 1: full (PC) range where limited (TV) range is required")
        }
        if let sar = sps.sampleAspectRatio, !sar.isSquare {
            flag(.videoSAR, rung.file, "sample aspect ratio \(sar) (aspect_ratio_idc \(sps.aspectRatioIDC ?? 0)) is not 1:1")
        }
    }

    /// VIDEO-RANGE of a variant: SDR, unquoted, since every rung is 8-bit H.264.
    mutating func checkVideoRange(_ variant: VariantStream, _ name: String, _ file: String) {
        guard let range = variant.attributes["VIDEO-RANGE"] else {
            flag(.masterVideoRange, file, "\(name): VIDEO-RANGE is missing where SDR is required")
            return
        }
        if range != "SDR" {
            flag(.masterVideoRange, file, "\(name): VIDEO-RANGE=\(range) on an H.264 rung where SDR is required (PQ and HLG need HDR in a 10-bit codec)")
        } else if variant.attributes.quoted.contains("VIDEO-RANGE") {
            flag(.masterVideoRange, file, "\(name): VIDEO-RANGE is quoted, but it is an enumerated string: VIDEO-RANGE=SDR")
        }
    }
}
