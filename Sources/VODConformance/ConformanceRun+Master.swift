import Foundation

extension ConformanceRun {
    /// Checks the playlist at `url`: a whole title when it is a master playlist, one rung when it is a media playlist.
    mutating func checkTitle(_ url: URL) {
        switch loadPlaylist(url, from: nil) {
        case .media(let media):
            guard let rung = analyseRung(url, media) else { return }
            measurements.rungs.append(rung.measurement)
            checkLadder([rung])
        case .master(let master) where Self.isAudioOnly(master):
            checkAudioOnlyMaster(master, url)
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
        let (variants, rungs) = analyseVariants(master, url)
        measurements.rungs += rungs.map(\.measurement)
        checkLadder(rungs)
        let audioGroups = checkRenditions(master, url, variants: variants)
        checkClosedCaptions(master, url, variants: variants)
        for variant in variants {
            let group = variant.stream.audioGroup.flatMap { audioGroups[$0] } ?? []
            checkVariant(variant.stream, variant.rung, audio: group, file)
        }
        checkHDRFallback(variants, file)
        checkVariantOrder(master, file)
        checkIFrameStreams(master, url, variants: variants.map(\.rung))
    }

    /// Within each audio group, the H.264 SDR variants come first, where many players start, then the others
    /// (HEVC, HDR); each kind in ascending BANDWIDTH.
    private mutating func checkVariantOrder(_ master: MasterPlaylist, _ file: String) {
        let groups = master.variants.reduce(into: [String?]()) { groups, variant in
            if !groups.contains(variant.audioGroup) { groups.append(variant.audioGroup) }
        }
        for group in groups {
            let order = master.variants.filter { $0.audioGroup == group }.compactMap { variant in
                variant.bandwidth.map { (Self.isPlainSDR(variant) ? 0 : 1, $0) }
            }
            if !zip(order, order.dropFirst()).allSatisfy({ $0 <= $1 }) {
                flag(.masterVariantOrder, file, "variants are not H.264 SDR first, each kind in ascending BANDWIDTH: "
                    + order.map { "\($0.1)\($0.0 == 0 ? "" : " (HEVC or HDR)")" }.joined(separator: ", "))
            }
        }
    }

    /// Whether a variant is H.264 in SDR, which every player plays.
    static func isPlainSDR(_ variant: VariantStream) -> Bool {
        (variant.codecs ?? []).contains { $0.hasPrefix("avc1.") || $0.hasPrefix("avc3.") }
            && (variant.attributes["VIDEO-RANGE"] ?? "SDR") == "SDR"
    }

    /// Reads each variant's media playlist and segments once, however many variants name it; `audioOnly` for
    /// an audio-only title. Returns the variants with their analyses, and the distinct analyses in order.
    mutating func analyseVariants(_ master: MasterPlaylist, _ url: URL, audioOnly: Bool = false)
        -> (variants: [(stream: VariantStream, rung: RungAnalysis)], playlists: [RungAnalysis]) {
        var variants: [(stream: VariantStream, rung: RungAnalysis)] = []
        var playlists: [RungAnalysis] = []
        for variant in master.variants {
            guard let mediaURL = resolve(variant.uri, from: url) else { continue }
            if let known = playlists.first(where: { $0.url == mediaURL }) {
                variants.append((variant, known))
                continue
            }
            guard let media = loadMediaPlaylist(mediaURL, from: url),
                  let analysis = analyseRung(mediaURL, media, audioOnly: audioOnly) else { continue }
            variants.append((variant, analysis))
            playlists.append(analysis)
        }
        return (variants, playlists)
    }

    /// Checks a variant against its rung, and against `audio`, the renditions of the audio group it names.
    private mutating func checkVariant(_ variant: VariantStream, _ rung: RungAnalysis, audio: [RungAnalysis], _ file: String) {
        let name = "variant \(variant.uri ?? "") (line \(variant.line))"
        let target = rung.playlist.targetDuration ?? 0
        let videoPeak = Bandwidth.peak(segments: rung.sizes, targetDuration: target)
        let videoAverage = Bandwidth.average(segments: rung.sizes)
        let together = audio.map { Self.playedTogether(rung.sizes, $0.sizes) }
        let peak = together.map { Bandwidth.peak(segments: $0, targetDuration: target) }.max() ?? videoPeak
        let average = together.map { Bandwidth.average(segments: $0) }.max() ?? videoAverage
        let withAudio = " with audio group \"\(variant.audioGroup ?? "")\"'s largest rendition"
        if let bandwidth = variant.bandwidth.map(Double.init) {
            if bandwidth < peak, !audio.isEmpty, bandwidth >= videoPeak {
                flag(.audioBandwidth, file, "\(name): BANDWIDTH \(whole(bandwidth)) is below the measured peak\(withAudio), \(whole(peak))")
            } else if bandwidth < peak {
                flag(.masterBandwidth, file, "\(name): BANDWIDTH \(whole(bandwidth)) is below the measured peak \(whole(peak))")
            } else if bandwidth > peak * 1.1 {
                flag(.masterBandwidth, file, "\(name): BANDWIDTH \(whole(bandwidth)) is more than 10 % above the measured peak \(whole(peak))")
            }
        } else {
            flag(.masterBandwidth, file, "\(name): BANDWIDTH is missing or not an integer")
        }
        if let declared = variant.averageBandwidth.map(Double.init) {
            if abs(declared - average) > 0.1 * average {
                let rule: ConformanceRule = !audio.isEmpty && abs(declared - videoAverage) <= 0.1 * videoAverage ? .audioBandwidth : .masterAverageBandwidth
                let scope = rule == .audioBandwidth ? withAudio : ""
                flag(rule, file, "\(name): AVERAGE-BANDWIDTH \(whole(declared)) is not within 10 % of the measured\(scope) \(whole(average))")
            }
        } else {
            flag(.masterAverageBandwidth, file, "\(name): AVERAGE-BANDWIDTH is missing or not an integer")
        }
        checkFrameRate(variant, rung, name, file)
        checkVideoRange(variant, sps: rung.sps, name, file)
        let audioCodecs = audio.compactMap { $0.audioStream?.codec }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        checkDescription(variant, codecs: rung.codecs, audioCodecs: audioCodecs, sps: rung.sps, name, file)
        checkSegmentsAgree(rung, name, file)
    }

    /// One CODECS and RESOLUTION describe the whole rung, so every segment's SPS must call for the same codec
    /// string and size as the first.
    private mutating func checkSegmentsAgree(_ rung: RungAnalysis, _ name: String, _ file: String) {
        guard let first = rung.sps else { return }
        for segment in rung.segments {
            guard let sps = segment.stream.video?.sps,
                  sps.codecString != first.codecString || sps.width != first.width || sps.height != first.height else { continue }
            flag(.masterCodecs, file, "\(name): \(segment.file) is \(sps.codecString) \(sps.width)x\(sps.height), "
                 + "the rung's first segment \(first.codecString) \(first.width)x\(first.height)")
        }
    }

    /// The segments of a video rung and an audio rendition played together: bytes added, the video's durations;
    /// when the two are not cut alike, the video's segments each with the rendition's average share added.
    private static func playedTogether(_ video: [(bytes: Int, duration: Double)], _ audio: [(bytes: Int, duration: Double)]) -> [(bytes: Int, duration: Double)] {
        if video.count == audio.count {
            return zip(video, audio).map { ($0.bytes + $1.bytes, $0.duration) }
        }
        let rate = Bandwidth.average(segments: audio) / 8
        return video.map { ($0.bytes + Int((rate * $0.duration).rounded()), $0.duration) }
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

    /// Checks RESOLUTION and CODECS of a variant or I-frame stream against the bitstream; `audioCodecs` are those of
    /// the audio group the variant names, which its CODECS must list too.
    mutating func checkDescription(_ stream: VariantStream, codecs: [String], audioCodecs: [String] = [], sps: SequenceParameterSet?,
                                   _ name: String, _ file: String) {
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
        let expected = codecs + audioCodecs.filter { codec in !codecs.contains { $0.lowercased() == codec.lowercased() } }
        if Set(declared.map { $0.lowercased() }) != Set(expected.map { $0.lowercased() }) || declared.count != expected.count {
            let isVideo = { (codec: String) in !["mp4a.", "ac-3", "ec-3"].contains { codec.lowercased().hasPrefix($0) } }
            let videoMatches = Set(declared.filter(isVideo).map { $0.lowercased() }) == Set(expected.filter(isVideo).map { $0.lowercased() })
            let rule: ConformanceRule = !audioCodecs.isEmpty && videoMatches ? .audioCodecs : .masterCodecs
            flag(rule, file, "\(name): CODECS \"\(declared.joined(separator: ","))\" is not the encoded \"\(expected.joined(separator: ","))\"")
        }
    }
}
