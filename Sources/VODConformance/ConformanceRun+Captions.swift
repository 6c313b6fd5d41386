import Foundation

extension ConformanceRun {
    /// Checks the `TYPE=CLOSED-CAPTIONS` renditions of a master, the `CLOSED-CAPTIONS` attribute of every variant,
    /// and that the rungs of variants that announce captions carry them in their H.264 (A/53 SEI).
    mutating func checkClosedCaptions(_ master: MasterPlaylist, _ url: URL,
                                      variants: [(stream: VariantStream, rung: RungAnalysis)]) {
        let file = relative(url)
        let renditions = master.renditions.filter { $0.type == "CLOSED-CAPTIONS" }
        for rendition in renditions {
            var problems: [String] = []
            if rendition.groupID == nil { problems.append("it has no GROUP-ID") }
            if rendition.uri != nil { problems.append("it has a URI, which closed captions in the video never have") }
            if let id = rendition.attributes["INSTREAM-ID"] {
                if !rendition.attributes.quoted.contains("INSTREAM-ID") || !Self.isInstreamID(id) {
                    problems.append("INSTREAM-ID \(id) is not a quoted CC1 to CC4 or SERVICE1 to SERVICE63")
                }
            } else {
                problems.append("it has no INSTREAM-ID")
            }
            for problem in problems { flag(.captionsAttributes, file, "\(rendition.label): \(problem)") }
        }
        let groups = Set(renditions.compactMap(\.groupID))
        var announced: [String: RungAnalysis] = [:]
        for (variant, rung) in variants {
            let name = "variant \(variant.uri ?? "") (line \(variant.line))"
            let value = variant.attributes["CLOSED-CAPTIONS"]
            let isQuoted = variant.attributes.quoted.contains("CLOSED-CAPTIONS")
            if let value, isQuoted, groups.contains(value) {
                announced[rung.file] = rung
            } else if !groups.isEmpty {
                flag(.captionsGroup, file, "\(name): CLOSED-CAPTIONS \(value.map { "\($0) names no closed-captions group" } ?? "is missing")")
            } else if let value, value != "NONE" || isQuoted {
                flag(.captionsGroup, file, "\(name): CLOSED-CAPTIONS=\(value) names no closed-captions group (NONE is unquoted)")
            }
        }
        for rung in announced.values.sorted(by: { $0.file < $1.file })
        where !rung.segments.contains(where: { $0.stream.video?.carriesCaptions == true }) {
            flag(.captionsPresent, rung.file, "the master announces closed captions, but no picture of the rung carries A/53 caption data")
        }
    }

    /// `CC1` to `CC4`, or `SERVICE1` to `SERVICE63`.
    static func isInstreamID(_ id: String) -> Bool {
        if id.hasPrefix("CC"), let number = Int(id.dropFirst(2)), (1...4).contains(number), id.count == 3 { return true }
        guard id.hasPrefix("SERVICE"), let number = Int(id.dropFirst(7)), !id.dropFirst(7).hasPrefix("0") else { return false }
        return (1...63).contains(number)
    }
}
