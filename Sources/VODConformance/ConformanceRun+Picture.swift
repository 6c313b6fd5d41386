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

    /// The picture rules of a rung's SPS: BT.709 colour (BT.2020 primaries and matrix for an HDR rung,
    /// `SequenceParameterSet.hdrRange`), limited range and square pixels.
    mutating func checkPicture(_ rung: RungAnalysis) {
        guard let sps = rung.sps else { return }
        let (expected, required) = sps.hdrRange == nil ? ([UInt8(1), 1, 1], "BT.709 (1)") : ([9, sps.transferCharacteristics ?? 0, 9], "BT.2020 (9) for HDR")
        if let primaries = sps.colourPrimaries, let transfer = sps.transferCharacteristics, let matrix = sps.matrixCoefficients {
            let found = [("colour primaries", primaries, Self.primaryNames), ("transfer", transfer, Self.transferNames),
                         ("matrix", matrix, Self.matrixNames)]
            let wrong = zip(found, expected).filter { $0.0.1 != $0.1 }.map(\.0).map { name, code, names in
                "\(name) \(code)" + (names[code].map { " (\($0))" } ?? "")
            }
            if !wrong.isEmpty {
                flag(.videoColour, rung.file, wrong.joined(separator: ", ") + " where \(required) is required")
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

    /// VIDEO-RANGE of a variant, unquoted: PQ or HLG on an HDR rung (`SequenceParameterSet.hdrRange`), SDR on
    /// every other.
    mutating func checkVideoRange(_ variant: VariantStream, sps: SequenceParameterSet?, _ name: String, _ file: String) {
        let expected = sps?.hdrRange ?? "SDR"
        guard let range = variant.attributes["VIDEO-RANGE"] else {
            flag(.masterVideoRange, file, "\(name): VIDEO-RANGE is missing where \(expected) is required")
            return
        }
        if range != expected, sps?.coding == .hevc {
            flag(.masterVideoRange, file, "\(name): VIDEO-RANGE=\(range) where the rung's \(sps?.bitDepthLuma ?? 8)-bit HEVC with "
                 + "transfer \(sps?.transferCharacteristics ?? 2) calls for VIDEO-RANGE=\(expected)")
        } else if range != expected {
            flag(.masterVideoRange, file, "\(name): VIDEO-RANGE=\(range) on an H.264 rung where SDR is required (PQ and HLG need HDR in a 10-bit codec)")
        } else if variant.attributes.quoted.contains("VIDEO-RANGE") {
            flag(.masterVideoRange, file, "\(name): VIDEO-RANGE is quoted, but it is an enumerated string: VIDEO-RANGE=\(expected)")
        }
    }

    /// An HDR variant is never the only one of its resolution: an SDR variant of the same size is there for SDR
    /// screens.
    mutating func checkHDRFallback(_ variants: [(stream: VariantStream, rung: RungAnalysis)], _ file: String) {
        let sdr = Set(variants.filter { $0.rung.sps?.hdrRange == nil }.compactMap { $0.stream.resolution })
        for (stream, rung) in variants where rung.sps?.hdrRange != nil {
            guard let resolution = stream.resolution, !sdr.contains(resolution) else { continue }
            flag(.masterHDRFallback, file, "variant \(stream.uri ?? "") (line \(stream.line)): \(rung.sps?.hdrRange ?? "") at \(resolution) "
                 + "has no SDR variant of the same resolution")
        }
    }
}

extension SequenceParameterSet {
    /// The VIDEO-RANGE an HDR rung calls for: `PQ` or `HLG` for 10-bit HEVC whose VUI transfer is PQ (16) or
    /// HLG (18); nil for every other rung, which is SDR.
    public var hdrRange: String? {
        guard coding == .hevc, bitDepthLuma == 10 else { return nil }
        return [16: "PQ", 18: "HLG"][transferCharacteristics ?? 0]
    }
}
