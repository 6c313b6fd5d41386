import Foundation

extension ConformanceRun {
    /// Checks the `TYPE=AUDIO` renditions, their playlists and segments against the video `rungs`; returns them by GROUP-ID.
    mutating func checkAudioRenditions(_ master: MasterPlaylist, _ url: URL, rungs: [RungAnalysis]) -> [String: [RungAnalysis]] {
        let file = relative(url)
        let renditions = master.renditions.filter { $0.type == "AUDIO" }
        guard !renditions.isEmpty else { return [:] }
        var groups: [String: [RungAnalysis]] = [:]
        var analysed: [(rendition: MediaRendition, analysis: RungAnalysis)] = []
        for rendition in renditions {
            checkAudioAttributes(rendition, file)
            guard rendition.uri != nil, let mediaURL = resolve(rendition.uri, from: url),
                  let media = loadMediaPlaylist(mediaURL, from: url),
                  let analysis = analyseRung(mediaURL, media, audioOnly: true) else { continue }
            measurements.audioRenditions.append(analysis.measurement)
            checkChannels(rendition, analysis, file)
            if let video = rungs.first { compare(audio: analysis, with: video) }
            groups[rendition.groupID ?? "", default: []].append(analysis)
            analysed.append((rendition, analysis))
        }
        var groupIDs: [String] = []
        for rendition in renditions where !groupIDs.contains(rendition.groupID ?? "") { groupIDs.append(rendition.groupID ?? "") }
        for group in groupIDs {
            let defaults = renditions.filter { $0.groupID ?? "" == group && $0.isDefault }
            if defaults.count != 1 {
                flag(.audioDefault, file, "audio group \"\(group)\" has \(defaults.count) renditions with DEFAULT=YES, not one")
            }
            for rendition in defaults where !rendition.isAutoselect {
                flag(.audioDefault, file, "\(rendition.label) has DEFAULT=YES without AUTOSELECT=YES")
            }
        }
        // In an audio-only title the variants play renditions themselves.
        let renditionURLs = Set(analysed.map(\.analysis.url))
        if renditions.contains(where: { $0.uri != nil }) {
            for rung in rungs where rung.hasAudio && !renditionURLs.contains(rung.url) {
                flag(.audioDemuxed, rung.file, "the video segments carry audio though the title has audio renditions")
            }
        }
        checkStereoAndSurround(master, analysed, file)
        return groups
    }

    private mutating func checkAudioAttributes(_ rendition: MediaRendition, _ file: String) {
        let missing = ["GROUP-ID", "CHANNELS", "URI"].filter { rendition.attributes[$0] == nil }
        if !missing.isEmpty {
            flag(.audioAttributes, file, "\(rendition.label) lacks \(missing.joined(separator: ", "))")
        }
        if !rendition.isAutoselect {
            flag(.audioAttributes, file, "\(rendition.label) does not have AUTOSELECT=YES")
        }
    }

    private mutating func checkChannels(_ rendition: MediaRendition, _ analysis: RungAnalysis, _ file: String) {
        guard let text = rendition.channels else { return }
        guard rendition.attributes.quoted.contains("CHANNELS"), !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            flag(.audioChannels, file, "\(rendition.label): CHANNELS \(text) is not a quoted decimal such as \"2\"")
            return
        }
        if let encoded = analysis.audioStream?.channels, Int(text) != encoded {
            flag(.audioChannels, file, "\(rendition.label): CHANNELS \"\(text)\" but \(analysis.file) is encoded with \(encoded) channels")
        }
    }

    /// An audio rendition's playlist against the first video rung (an audio-only title's first variant): target
    /// duration, segment count, segment times.
    private mutating func compare(audio: RungAnalysis, with video: RungAnalysis) {
        if audio.playlist.targetDuration != video.playlist.targetDuration {
            let values = [audio, video].map { $0.playlist.targetDurationText ?? "missing" }
            flag(.audioTargetDuration, audio.file, "TARGETDURATION \(values[0]) differs from \(values[1]) in \(video.file)")
        }
        guard audio.playlist.segments.count == video.playlist.segments.count else {
            flag(.audioSegmentCount, audio.file, "\(audio.playlist.segments.count) segments, \(video.file) has \(video.playlist.segments.count)")
            return
        }
        guard audio.segments.count == video.segments.count else { return }
        let frame = audio.audioStream?.frameDurationTicks ?? 0
        let misaligned = audio.segments.indices.filter { index in
            let reference = video.segments[index]
            let pairs = [(audio.segments[index].audioStart.map(Double.init), (reference.videoStart ?? reference.audioStart).map(Double.init)),
                         (audio.segments[index].audioEnd.map(Double.init), video.videoEnd(index) ?? reference.audioEnd.map(Double.init))]
            return pairs.contains { pair in
                guard let ours = pair.0, let theirs = pair.1 else { return false }
                return abs(ours - theirs) > frame + 1
            }
        }
        if let first = misaligned.first {
            flag(.audioSegmentAlignment, audio.file, "\(misaligned.count) segments, the first being segment \(first), cover other times than in \(video.file) by more than one audio frame")
        }
    }

    /// A group of AAC-LC stereo renditions exists; a 5.1 AC-3/E-AC-3 rendition has its own group and STREAM-INF set.
    private mutating func checkStereoAndSurround(_ master: MasterPlaylist, _ analysed: [(rendition: MediaRendition, analysis: RungAnalysis)], _ file: String) {
        guard !analysed.isEmpty else { return }
        let byGroup = Dictionary(grouping: analysed) { $0.rendition.groupID ?? "" }
        let stereo = Set(byGroup.filter { _, members in
            members.allSatisfy { $0.analysis.audioStream?.codec == "mp4a.40.2" && $0.analysis.audioStream?.channels == 2 }
        }.keys)
        if stereo.isEmpty {
            flag(.audioStereo, file, "no audio group holds only AAC-LC (mp4a.40.2) stereo renditions")
        }
        let videos = { (groups: Set<String>) in Set(master.variants.filter { groups.contains($0.audioGroup ?? "") }.compactMap(\.uri)) }
        let surround = byGroup.filter { _, members in
            members.contains { ["ac-3", "ec-3"].contains($0.analysis.audioStream?.codec ?? "") && $0.rendition.channels == "6" }
        }
        for (group, members) in surround.sorted(by: { $0.key < $1.key }) {
            if members.contains(where: { $0.analysis.audioStream?.codec?.hasPrefix("mp4a.") == true }) {
                flag(.audioSurround, file, "audio group \"\(group)\" mixes 5.1 AC-3/E-AC-3 with AAC renditions; the 5.1 rendition needs a group of its own")
            }
            // An audio-only title's variants are the renditions themselves, so each group has its own.
            let ours = videos([group])
            let theirs = videos(stereo)
            if ours != theirs, !Self.isAudioOnly(master) {
                flag(.audioSurround, file, "the STREAM-INF lines naming audio group \"\(group)\" point at \(ours.sorted()), those naming the AAC groups at \(theirs.sorted())")
            }
        }
    }
}
