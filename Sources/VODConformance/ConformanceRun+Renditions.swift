import Foundation
import VODModel

extension ConformanceRun {
    /// Checks the `#EXT-X-MEDIA` renditions of a master playlist: names and languages, alternate audio, subtitles.
    /// Returns the analysed audio renditions by GROUP-ID, for the variants' BANDWIDTH and CODECS.
    mutating func checkRenditions(_ master: MasterPlaylist, _ url: URL,
                                  variants: [(stream: VariantStream, rung: RungAnalysis)]) -> [String: [RungAnalysis]] {
        guard !master.renditions.isEmpty else { return [:] }
        let file = relative(url)
        checkNames(master.renditions, file)
        for rendition in master.renditions {
            if let language = rendition.language, let problem = LanguageTag.problem(language) {
                flag(.renditionLanguage, file, "\(rendition.label): LANGUAGE \(problem)")
            }
            if let forced = rendition.forced, rendition.type != "SUBTITLES" || !["YES", "NO"].contains(forced) {
                flag(.subtitlesForced, file, "\(rendition.label): FORCED=\(forced) is allowed only as YES or NO on subtitles")
            }
        }
        let rungs = variants.map(\.rung).reduce(into: [RungAnalysis]()) { list, rung in if !list.contains(where: { $0.url == rung.url }) { list.append(rung) } }
        let audio = checkAudioRenditions(master, url, rungs: rungs)
        checkSubtitleRenditions(master, url, video: variants.first?.rung)
        checkGroups(master, file)
        return audio
    }

    private mutating func checkNames(_ renditions: [MediaRendition], _ file: String) {
        var seen: Set<[String]> = []
        for rendition in renditions {
            guard let name = rendition.name, !name.isEmpty else {
                flag(.renditionName, file, "\(rendition.label) has no NAME")
                continue
            }
            if !seen.insert([rendition.type ?? "", rendition.groupID ?? "", name]).inserted {
                flag(.renditionName, file, "\(rendition.label): another rendition of the group has the same NAME")
            }
        }
    }

    /// Every STREAM-INF names an existing group of each type the title has; surround groups have their own STREAM-INF set.
    private mutating func checkGroups(_ master: MasterPlaylist, _ file: String) {
        let groups = { (type: String) in Set(master.renditions.filter { $0.type == type }.compactMap(\.groupID)) }
        let audio = groups("AUDIO")
        let subtitles = groups("SUBTITLES")
        for variant in master.variants {
            let name = "variant \(variant.uri ?? "") (line \(variant.line))"
            if !audio.isEmpty && !audio.contains(variant.audioGroup ?? "") {
                flag(.audioGroup, file, "\(name): AUDIO \(variant.audioGroup.map { "\"\($0)\" names no audio group" } ?? "is missing")")
            }
            if !subtitles.isEmpty && !subtitles.contains(variant.subtitlesGroup ?? "") {
                flag(.subtitlesGroup, file, "\(name): SUBTITLES \(variant.subtitlesGroup.map { "\"\($0)\" names no subtitles group" } ?? "is missing")")
            }
        }
    }
}
