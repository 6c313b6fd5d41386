import Foundation

extension ConformanceRun {
    /// Whether every variant of `master` declares audio codecs only: an audio-only title, such as a podcast.
    static func isAudioOnly(_ master: MasterPlaylist) -> Bool {
        !master.variants.isEmpty && master.variants.allSatisfy { variant in
            guard let codecs = variant.codecs, !codecs.isEmpty else { return false }
            return codecs.allSatisfy(isAudioCodec)
        }
    }

    static func isAudioCodec(_ codec: String) -> Bool {
        ["mp4a.", "ac-3", "ec-3"].contains { codec.lowercased().hasPrefix($0) }
    }

    /// Checks an audio-only title: each variant's playlist as an audio rendition, its timing, and what the
    /// STREAM-INF declares against the audio group it names (or the variant alone when it names none).
    mutating func checkAudioOnlyMaster(_ master: MasterPlaylist, _ url: URL) {
        let file = relative(url)
        let (variants, analysed) = analyseVariants(master, url, audioOnly: true)
        analysed.forEach { checkAudioTiming($0) }
        let groups = checkRenditions(master, url, variants: variants)
        if master.renditions.isEmpty { measurements.audioRenditions += analysed.map(\.measurement) }
        for (stream, rung) in variants {
            let members = stream.audioGroup.flatMap { groups[$0] } ?? [rung]
            checkAudioOnlyVariant(stream, members: members.isEmpty ? [rung] : members, file)
        }
        let bandwidths = master.variants.compactMap(\.bandwidth)
        if bandwidths != bandwidths.sorted() {
            flag(.masterVariantOrder, file, "variants are not in ascending BANDWIDTH: \(bandwidths.map(String.init).joined(separator: ", "))")
        }
    }

    /// Audio is continuous from segment to segment, and the EXTINF durations add up to the audio's, give or take
    /// two audio frames: the encoder's priming (AAC's first 1024 samples, which players decode and drop) and the
    /// last frame, which is whole even when the audio ends part-way through it.
    private mutating func checkAudioTiming(_ rung: RungAnalysis) {
        guard let frame = rung.audioStream?.frameDurationTicks else { return }
        for index in rung.segments.indices.dropFirst() {
            if let end = rung.segments[index - 1].audioEnd, let start = rung.segments[index].audioStart {
                checkContinuity(Double(start - end), tolerance: frame, stream: "audio", rung.segments[index].file)
            }
        }
        guard let start = rung.segments.first?.audioStart, let end = rung.segments.last?.audioEnd else { return }
        let real = Double(end - start) / Timestamp.ticksPerSecond
        let listed = rung.playlist.totalDuration
        if abs(listed - real) * Timestamp.ticksPerSecond > 2 * frame + 1 {
            flag(.mediaDuration, rung.file, "EXTINF adds up to \(seconds(listed)) but the audio lasts \(seconds(real))")
        }
    }

    /// BANDWIDTH and AVERAGE-BANDWIDTH are those of the largest of `members`, and CODECS names their codecs.
    private mutating func checkAudioOnlyVariant(_ variant: VariantStream, members: [RungAnalysis], _ file: String) {
        let name = "variant \(variant.uri ?? "") (line \(variant.line))"
        let peak = members.map { Double(Bandwidth.peak(segments: $0.sizes, targetDuration: $0.playlist.targetDuration ?? 0)) }.max() ?? 0
        let average = members.map { Double(Bandwidth.average(segments: $0.sizes)) }.max() ?? 0
        if let bandwidth = variant.bandwidth.map(Double.init) {
            if bandwidth < peak || bandwidth > peak * 1.1 {
                flag(.masterBandwidth, file, "\(name): BANDWIDTH \(whole(bandwidth)) is not within 10 % above the measured peak \(whole(peak))")
            }
        } else {
            flag(.masterBandwidth, file, "\(name): BANDWIDTH is missing or not an integer")
        }
        if let declared = variant.averageBandwidth.map(Double.init) {
            if abs(declared - average) > 0.1 * average {
                flag(.masterAverageBandwidth, file, "\(name): AVERAGE-BANDWIDTH \(whole(declared)) is not within 10 % of the measured \(whole(average))")
            }
        } else {
            flag(.masterAverageBandwidth, file, "\(name): AVERAGE-BANDWIDTH is missing or not an integer")
        }
        let encoded = members.compactMap { $0.audioStream?.codec }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        checkDescription(variant, codecs: [], audioCodecs: encoded, sps: nil, name, file)
    }
}
