import Foundation

/// Which rungs of a growing title its master lists. The rungs come in groups, each published at its own pace:
/// the first, with the audio renditions, is listed from its first segment and makes the title playable once its
/// publication stays ahead of a player starting then (`PublicationPace`); every other group is listed (joins
/// the master) once its own publication stays ahead of a player starting then, or once it is complete, and is
/// never left out again, so a player keeps the rungs it was offered.
struct RungGroups: Sendable {
    /// One group of rungs: how many segments all of them have, and whether the master lists them.
    struct Group: Sendable {
        var rungs: [String]
        var published = 0
        var pace: PublicationPace?
        var listed: Bool
    }

    private(set) var groups: [Group]

    /// Groups of rung names, the first listed from its first segment; each other group listed once `pace` says
    /// its publication stays ahead of a player, or at once without a pace.
    init(_ groups: [[String]], pace: PublicationPace?) {
        self.groups = groups.enumerated().map { index, rungs in
            Group(rungs: rungs, pace: pace, listed: index == 0 || pace == nil)
        }
    }

    /// How many segments the first group has published.
    var segments: Int { groups.first?.published ?? 0 }

    /// Records that the groups have `counts` segments each (every rung of the group, and for the first the
    /// audio). Returns whether the listed playlists changed, and whether the first group's publication makes the
    /// title playable.
    mutating func publish(_ counts: [Int], now: ContinuousClock.Instant = .now) -> (changed: Bool, makesPlayable: Bool) {
        var changed = false
        var makesPlayable = false
        for (index, count) in zip(groups.indices, counts) where count > groups[index].published {
            groups[index].published = count
            let staysAhead = groups[index].pace?.publication(of: count, now: now).makesPlayable ?? false
            if index == 0 { makesPlayable = staysAhead } else if staysAhead { groups[index].listed = true }
            changed = changed || groups[index].listed
        }
        return (changed && segments > 0, makesPlayable)
    }

    /// How many segments the playlists of `rung` list: those of its group, never more than the first group (and
    /// so the audio) has; nil while its group is not listed.
    func listed(_ rung: String) -> Int? {
        groups.first { $0.listed && $0.rungs.contains(rung) }.map { min($0.published, segments) }
    }
}
