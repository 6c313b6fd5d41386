import Foundation

extension ConformanceRun {
    /// Reads the init segment a playlist's `#EXT-X-MAP` names and checks it: `ftyp` and `moov` with `mvex`, no
    /// samples, every track's sample entry allowed (`hvc1` for HEVC, never `hev1`; AAC, AC-3 or E-AC-3 audio).
    mutating func loadInitSegment(_ uri: String, of playlist: URL) -> FragmentedInit? {
        guard let url = resolve(uri, from: playlist), let bytes = read(url, range: nil, from: playlist) else { return nil }
        let file = relative(url)
        let initSegment = FragmentedInit(bytes: bytes)
        if initSegment.topLevel.first != "ftyp" || !initSegment.topLevel.contains("moov") {
            flag(.fmp4Init, file, "the init segment is \(initSegment.topLevel.joined(separator: ", ")), not ftyp then moov")
        }
        let media = initSegment.topLevel.filter { ["moof", "mdat"].contains($0) }
        if !media.isEmpty { flag(.fmp4Init, file, "the init segment holds samples (\(media.joined(separator: ", ")))") }
        if !initSegment.hasMovieExtends { flag(.fmp4Init, file, "the moov has no mvex, so no fragment may follow it") }
        if !initSegment.problems.isEmpty { flag(.fmp4Init, file, initSegment.problems.joined(separator: "; ")) }
        for track in initSegment.tracks {
            let allowed = track.handler == "vide" ? ["avc1", "hvc1"] : ["mp4a", "ac-3", "ec-3"]
            if !allowed.contains(track.sampleEntry) {
                flag(.fmp4SampleEntry, file, "track \(track.id) has sample entry '\(track.sampleEntry)', not \(allowed.joined(separator: " or "))")
            }
        }
        return initSegment
    }

    /// The rules between an fMP4 segment and the one before it in its playlist: each track's first `tfdt` is the
    /// decode time where the previous segment's samples ended, and fragment sequence numbers increase.
    mutating func checkFragments(_ stream: TransportStreamSegment, after previous: TransportStreamSegment?, _ file: String) {
        guard let fragments = stream.fragments else { return }
        let numbers = fragments.sequenceNumbers
        if zip(numbers, numbers.dropFirst()).contains(where: { $0 >= $1 }) {
            flag(.fmp4Segment, file, "fragment sequence numbers \(numbers) do not increase")
        }
        guard let earlier = previous?.fragments else { return }
        if let last = earlier.sequenceNumbers.last, let first = numbers.first, first <= last {
            flag(.fmp4Segment, file, "the first fragment's sequence number \(first) does not follow the previous segment's \(last)")
        }
        for (track, times) in fragments.decodeTimes.sorted(by: { $0.key < $1.key }) {
            guard let end = earlier.decodeTimes[track]?.end, end != times.start else { continue }
            flag(.fmp4DecodeTimes, file, "track \(track) starts at tfdt \(times.start), where the previous segment ended at \(end)")
        }
    }
}
