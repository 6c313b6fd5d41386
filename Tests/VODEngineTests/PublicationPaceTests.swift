import Foundation
import Testing
@testable import VODEngine

/// A growing title says it is playable only once its publication can stay ahead of a player that starts then.
@Suite struct PublicationPaceTests {
    /// A 60 s title: a 2 s first segment, then 6 s ones, the last 4 s.
    static let boundaries: [Double] = [0, 2, 8, 14, 20, 26, 32, 38, 44, 50, 56, 60]

    static func pace(after seconds: Double) -> (PublicationPace, ContinuousClock.Instant) {
        let now = ContinuousClock.now
        return (PublicationPace(boundaries: boundaries, started: now - .seconds(seconds)), now)
    }

    @Test func nothingPublishedIsNotPlayableAndEverythingPublishedIs() {
        let (pace, now) = Self.pace(after: 100)
        #expect(!pace.staysAhead(published: 0, now: now))
        #expect(pace.staysAhead(published: 11, now: now), "every segment out, however slowly")
    }

    @Test func theNextSegmentMustBeOutBeforeThePlayerReachesIt() {
        // 2 s out after 0.5 s: 4× real time, but the 6 s segment after it needs 6 / (4 × 0.85) = 1.8 s, and a
        // player that starts now needs it in 2 s less the publication's latency.
        let (early, now) = Self.pace(after: 0.5)
        #expect(!early.staysAhead(published: 1, now: now))
        // 8 s out after 2.5 s (3.2×): the rest of the title keeps ahead of a player.
        let (later, then) = Self.pace(after: 2.5)
        #expect(later.staysAhead(published: 2, now: then))
    }

    @Test func aTitleEncodedSlowerThanRealTimeWaitsUntilTheRestCanBeEncodedWhileTheStartPlays() {
        // At real time (8 s out after 8 s), the last segment would be out 52 / 0.85 = 61 s from now, but a player
        // reaches it in 56 s.
        let (steady, now) = Self.pace(after: 8)
        #expect(!steady.staysAhead(published: 2, now: now))
        // At half of real time, 44 s out after 88 s: the last 16 s take 37.6 s, and the player needs them from
        // 44 s on.
        let (slow, then) = Self.pace(after: 88)
        #expect(slow.staysAhead(published: 8, now: then))
        var claims = slow
        #expect(claims.publication(of: 8, now: then).makesPlayable)
        #expect(!claims.publication(of: 9, now: then).makesPlayable, "playable once")
    }
}
