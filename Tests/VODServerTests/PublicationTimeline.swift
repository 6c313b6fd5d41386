import Foundation
import Testing
import VODCatalog

/// When each segment of each rendition of a growing title was first listed, as a player polling its media
/// playlists from the moment the title said it was playable would see them, when each rendition joined the
/// master, and what a player would wait for if it started then (or, for a rendition that joined the master
/// later, when it joined) and played at 1×.
struct PublicationTimeline {
    /// One segment of a rendition: where it starts in the title, and when it was first seen listed.
    struct Listing {
        let name: String
        let start: Double
        let seen: ContinuousClock.Instant
    }

    /// When the catalog first said the title was playable.
    let playable: ContinuousClock.Instant
    /// Every media playlist's segments, by the rendition's folder (`240p`, `audio_0`).
    let renditions: [String: [Listing]]
    /// When each rendition was first seen named in the master, from `playable` on, by its folder.
    let joined: [String: ContinuousClock.Instant]
    /// How often the playlists were read: how late a listing may be seen.
    let interval: Duration

    /// Waits until item `id` of `catalog` is playable, then reads every media playlist of its folder every
    /// `interval` until each ends (`#EXT-X-ENDLIST`) or `timeout` passes.
    static func record(id: Int64, catalog: any MediaStore, interval: Duration = .milliseconds(40),
                       timeout: Duration = .seconds(240)) async throws -> PublicationTimeline {
        let deadline = ContinuousClock.now + timeout
        var folder: String?
        while folder == nil {
            guard ContinuousClock.now < deadline else { throw TimelineError.timedOut("media \(id) never became playable") }
            if let item = try await catalog.media(id: id), item.isPlayable { folder = item.hlsPath } else { try await Task.sleep(for: interval) }
        }
        let playable = ContinuousClock.now
        let root = URL(fileURLWithPath: try #require(folder))
        var renditions: [String: [Listing]] = [:]
        var joined: [String: ContinuousClock.Instant] = [:]
        var ended: Set<String> = []
        while true {
            let now = ContinuousClock.now
            // The master is written after the media playlists it names: read first, it names none not yet read.
            let master = (try? String(contentsOf: root.appendingPathComponent("master.m3u8"), encoding: .utf8)) ?? ""
            for name in Self.renditions(named: master) where joined[name] == nil { joined[name] = now }
            let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter {
                FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/index.m3u8").path)
            }
            for name in names where !ended.contains(name) {
                let text = (try? String(contentsOf: root.appendingPathComponent("\(name)/index.m3u8"), encoding: .utf8)) ?? ""
                var known = renditions[name] ?? []
                for (index, segment) in Self.segments(text).enumerated() where index >= known.count {
                    known.append(Listing(name: segment.name, start: segment.start, seen: now))
                }
                renditions[name] = known
                if text.contains("#EXT-X-ENDLIST") { ended.insert(name) }
            }
            if !names.isEmpty, ended.count == names.count { break }
            guard now < deadline else { throw TimelineError.timedOut("media \(id) was not complete in time") }
            try await Task.sleep(for: interval)
        }
        return PublicationTimeline(playable: playable, renditions: renditions, joined: joined, interval: interval)
    }

    /// The segments a player starting at `playable` (or when the rendition joined the master, if later) and
    /// playing at 1× waited for, in each rendition: how late each was listed after the moment the player needed
    /// it (its start, plus the waits before it).
    func stalls() -> [String: Double] {
        Dictionary(uniqueKeysWithValues: renditions.map { name, listings in
            let start = joined[name] ?? playable
            var waited = 0.0
            for listing in listings {
                let needed = start + .seconds(listing.start + waited)
                if listing.seen > needed { waited += (listing.seen - needed) / .seconds(1) }
            }
            return (name, waited)
        })
    }

    /// The renditions the master named only more than one interval after `playable`: those that joined it later.
    var joinedLater: [String] {
        joined.filter { $0.value - playable > interval }.keys.sorted()
    }

    /// Expects the renditions `expected` (their folders), each named in the master by the end, none of which
    /// kept a player that started at playable, or when it joined the master, waiting longer than the timeline can
    /// tell (one interval).
    func expectNoStall(in expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(renditions.keys.sorted() == expected.sorted(), "\(renditions.keys.sorted())", sourceLocation: sourceLocation)
        #expect(joined.keys.sorted() == expected.sorted(), "named in the master: \(joined.keys.sorted())", sourceLocation: sourceLocation)
        for (rendition, stall) in stalls() {
            #expect(stall <= interval / .seconds(1),
                    "\(rendition) kept a player that started at playable waiting \(stall) s; start@seen:\n\(summary)",
                    sourceLocation: sourceLocation)
        }
    }

    /// Each rendition's segments as "start@seen", seen in seconds after playable.
    var summary: String {
        renditions.map { name, listings in
            "\(name) (joined at \(String(format: "%.2f", ((joined[name] ?? playable) - playable) / .seconds(1)))): " + listings.map { String(format: "%.1f@%.2f", $0.start, ($0.seen - playable) / .seconds(1)) }.joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// The folders of the renditions a master names: its variants, I-frame variants and alternates.
    static func renditions(named master: String) -> Set<String> {
        Set(master.components(separatedBy: "\n").compactMap { line -> String? in
            let uri = line.hasPrefix("#") ? line.components(separatedBy: "URI=\"").dropFirst().first?.components(separatedBy: "\"").first
                : line.isEmpty ? nil : line
            return uri.flatMap { $0.contains("/") ? $0.components(separatedBy: "/").first : nil }
        })
    }

    /// The segments of a media playlist: file name and start, in order.
    static func segments(_ playlist: String) -> [(name: String, start: Double)] {
        let lines = playlist.components(separatedBy: "\n")
        var start = 0.0
        return lines.indices.compactMap { index in
            guard lines[index].hasPrefix("#EXTINF:"), index + 1 < lines.count else { return nil }
            let duration = lines[index].dropFirst("#EXTINF:".count).split(separator: ",").first.flatMap { Double($0) } ?? 0
            defer { start += duration }
            return (lines[index + 1], start)
        }
    }

    enum TimelineError: Error {
        case timedOut(String)
    }
}
