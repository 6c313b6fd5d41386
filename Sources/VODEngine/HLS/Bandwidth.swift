/// The bitrates a master playlist declares for a stream, measured from the pieces its playlist lists.
enum Bandwidth {
    /// One listed piece: a segment, or an I-frame's byte range.
    typealias Piece = (bytes: Int64, duration: Double)

    /// RFC 8216 §4.1 peak: the largest bitrate over any run of consecutive pieces lasting between 0.5 and 1.5
    /// times the target duration; the whole stream when no run qualifies.
    static func peak(of pieces: [Piece], targetDuration: Int) -> Int {
        let low = 0.5 * Double(targetDuration)
        let high = 1.5 * Double(targetDuration)
        var best = 0.0
        for first in pieces.indices {
            var bytes: Int64 = 0
            var duration = 0.0
            for piece in pieces[first...] {
                bytes += piece.bytes
                duration += piece.duration
                if duration > high { break }
                if duration >= low { best = max(best, Double(bytes) * 8 / duration) }
            }
        }
        return best > 0 ? Int(best.rounded(.up)) : average(of: pieces)
    }

    /// The average bitrate over the whole stream.
    static func average(of pieces: [Piece]) -> Int {
        let bytes = pieces.reduce(Int64(0)) { $0 + $1.bytes }
        let duration = pieces.reduce(0.0) { $0 + $1.duration }
        guard duration > 0 else { return 0 }
        return Int((Double(bytes) * 8 / duration).rounded(.up))
    }
}

extension Rendition {
    /// The segments as bandwidth pieces.
    var segmentPieces: [Bandwidth.Piece] { segments.map { ($0.bytes, $0.duration) } }

    /// The I-frame byte ranges as bandwidth pieces.
    var iFramePieces: [Bandwidth.Piece] { iFrames.map { ($0.length, $0.duration) } }
}

/// What one variant of the master declares: its rung, plus the largest audio rendition a player may add to it.
struct VariantBandwidth {
    let rendition: Rendition
    /// The RFC 8216 peak of the rung with the audio rendition that makes it largest.
    let peak: Int
    /// The average of the rung with the audio rendition that makes it largest.
    let average: Int
    /// The CODECS attribute: the rung's codecs, then the audio renditions' codec.
    let codecs: String

    init(_ rendition: Rendition, audio: [AlternateRendition], targetDuration: Int) {
        self.rendition = rendition
        let video = rendition.segmentPieces
        // Segment k of an audio rendition covers the same time as segment k of the rung: add them up.
        let combined = audio.isEmpty ? [video] : audio.map { audio in
            zip(video, audio.segments).map { (bytes: $0.bytes + $1.bytes, duration: $0.duration) }
        }
        peak = combined.map { Bandwidth.peak(of: $0, targetDuration: targetDuration) }.max() ?? 0
        average = combined.map { Bandwidth.average(of: $0) }.max() ?? 0
        codecs = ([rendition.codecs] + (audio.first.map { [$0.codec] } ?? [])).joined(separator: ",")
    }
}

/// A variant of an audio-only title: an audio group, played from its default rendition, declaring the bitrate
/// of the group's largest rendition (the one a player may switch to).
struct AudioOnlyVariant {
    let group: String
    let codec: String
    /// The default rendition's playlist, relative to the output folder.
    let playlist: String
    let peak: Int
    let average: Int
    let segmentCount: Int

    /// One variant per group, in the order the groups first appear, the lower peak first.
    static func variants(of audio: [AlternateRendition], targetDuration: Int) -> [AudioOnlyVariant] {
        let groups = audio.reduce(into: [String]()) { groups, rendition in
            if !groups.contains(rendition.group) { groups.append(rendition.group) }
        }
        return groups.compactMap { group -> AudioOnlyVariant? in
            let members = audio.filter { $0.group == group }
            guard let primary = members.first(where: \.isDefault) ?? members.first else { return nil }
            let pieces = members.map { $0.segments.map { ($0.bytes, $0.duration) } }
            return AudioOnlyVariant(group: group, codec: primary.codec, playlist: primary.playlist,
                                    peak: pieces.map { Bandwidth.peak(of: $0, targetDuration: targetDuration) }.max() ?? 0,
                                    average: pieces.map { Bandwidth.average(of: $0) }.max() ?? 0,
                                    segmentCount: primary.segments.count)
        }.sorted { $0.peak < $1.peak }
    }
}
