import Foundation

extension ConformanceRun {
    /// Checks the playlist at `url`: a whole title when it is a master playlist, one rung when it is a media playlist.
    mutating func checkTitle(_ url: URL) {
        switch loadPlaylist(url, from: nil) {
        case .media(let media):
            guard let rung = analyseRung(url, media) else { return }
            measurements.rungs.append(rung.measurement)
            checkLadder([rung])
        case .master(let master):
            checkMaster(master, url)
        case nil:
            break
        }
    }

    private mutating func checkMaster(_ master: MasterPlaylist, _ url: URL) {
        let file = relative(url)
        if !master.independentSegments {
            flag(.masterIndependentSegments, file, "#EXT-X-INDEPENDENT-SEGMENTS is missing")
        }
        if master.variants.isEmpty {
            flag(.playlistSyntax, file, "the master playlist has no #EXT-X-STREAM-INF")
        }
        var variants: [(stream: VariantStream, rung: RungAnalysis)] = []
        for variant in master.variants {
            guard let mediaURL = resolve(variant.uri, from: url),
                  let media = loadMediaPlaylist(mediaURL, from: url),
                  let rung = analyseRung(mediaURL, media) else { continue }
            variants.append((variant, rung))
            measurements.rungs.append(rung.measurement)
        }
        checkLadder(variants.map(\.rung))
        for variant in variants {
            checkVariant(variant.stream, variant.rung, file)
        }
        let bandwidths = master.variants.compactMap(\.bandwidth)
        if bandwidths != bandwidths.sorted() {
            flag(.masterVariantOrder, file, "variants are not in ascending BANDWIDTH: \(bandwidths.map(String.init).joined(separator: ", "))")
        }
        checkIFrameStreams(master, url, variants: variants.map(\.rung))
    }

    private mutating func checkVariant(_ variant: VariantStream, _ rung: RungAnalysis, _ file: String) {
        let name = "variant \(variant.uri ?? "") (line \(variant.line))"
        let peak = Bandwidth.peak(segments: rung.sizes, targetDuration: rung.playlist.targetDuration ?? 0)
        if let bandwidth = variant.bandwidth.map(Double.init) {
            if bandwidth < peak {
                flag(.masterBandwidth, file, "\(name): BANDWIDTH \(whole(bandwidth)) is below the measured peak \(whole(peak))")
            } else if bandwidth > peak * 1.1 {
                flag(.masterBandwidth, file, "\(name): BANDWIDTH \(whole(bandwidth)) is more than 10 % above the measured peak \(whole(peak))")
            }
        } else {
            flag(.masterBandwidth, file, "\(name): BANDWIDTH is missing or not an integer")
        }
        let average = Bandwidth.average(segments: rung.sizes)
        if let declared = variant.averageBandwidth.map(Double.init) {
            if abs(declared - average) > 0.1 * average {
                flag(.masterAverageBandwidth, file, "\(name): AVERAGE-BANDWIDTH \(whole(declared)) is not within 10 % of the measured \(whole(average))")
            }
        } else {
            flag(.masterAverageBandwidth, file, "\(name): AVERAGE-BANDWIDTH is missing or not an integer")
        }
        checkFrameRate(variant, rung, name, file)
        checkVideoRange(variant, name, file)
        checkDescription(variant, codecs: rung.codecs, sps: rung.sps, name, file)
    }

    private mutating func checkFrameRate(_ variant: VariantStream, _ rung: RungAnalysis, _ name: String, _ file: String) {
        guard let text = variant.attributes["FRAME-RATE"], let declared = variant.frameRate else {
            flag(.masterFrameRate, file, "\(name): FRAME-RATE is missing or not a number")
            return
        }
        let decimals = text.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0
        if decimals > 3 {
            flag(.masterFrameRate, file, "\(name): FRAME-RATE \(text) has more than 3 decimals")
        }
        if let measured = rung.frameRate, abs(declared - measured) > 0.001 {
            flag(.masterFrameRate, file, "\(name): FRAME-RATE \(text) is not the encoded \(seconds(measured))")
        }
    }

    /// Checks RESOLUTION and CODECS of a variant or I-frame stream against the bitstream.
    mutating func checkDescription(_ stream: VariantStream, codecs: [String], sps: SequenceParameterSet?, _ name: String, _ file: String) {
        if let sps {
            let encoded = Resolution(width: sps.width, height: sps.height)
            if stream.resolution != encoded {
                flag(.masterResolution, file, "\(name): RESOLUTION \(stream.attributes["RESOLUTION"] ?? "missing") is not the encoded \(encoded)")
            }
        }
        guard let declared = stream.codecs else {
            flag(.masterCodecs, file, "\(name): CODECS is missing")
            return
        }
        if Set(declared.map { $0.lowercased() }) != Set(codecs.map { $0.lowercased() }) || declared.count != codecs.count {
            flag(.masterCodecs, file, "\(name): CODECS \"\(declared.joined(separator: ","))\" is not the encoded \"\(codecs.joined(separator: ","))\"")
        }
    }
}
