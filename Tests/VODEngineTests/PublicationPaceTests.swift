import Foundation
import Testing
@testable import VODEngine
import VODFFmpeg

/// A growing title says it is playable only once its publication can stay ahead of a player that starts then.
@Suite(.timeLimit(.minutes(2))) struct PublicationPaceTests {
    /// A 60 s title: a 2 s first segment, then 6 s ones, the last 4 s.
    static let boundaries: [Double] = [0, 2, 8, 14, 20, 26, 32, 38, 44, 50, 56, 60]

    /// The pace after the first segment was published, then `segments` were, `seconds` later.
    static func claim(_ segments: Int, after seconds: Double) -> Publication {
        var pace = PublicationPace(boundaries: boundaries)
        let start = ContinuousClock.now
        _ = pace.publication(of: 1, now: start)
        return pace.publication(of: segments, now: start + .seconds(seconds))
    }

    @Test func theFirstPublicationHasNoPaceToGoByUnlessItIsEverything() {
        var pace = PublicationPace(boundaries: Self.boundaries)
        #expect(!pace.publication(of: 1).makesPlayable)
        var whole = PublicationPace(boundaries: Self.boundaries)
        #expect(whole.publication(of: 11).makesPlayable, "every segment out at once")
    }

    @Test func theNextSegmentMustBeOutBeforeThePlayerReachesIt() {
        // 6 s more after 0.5 s (12× real time): the next 6 s take 0.6 s, out long before a player needs them.
        #expect(Self.claim(2, after: 0.5).makesPlayable)
        // 6 s more after 5 s: the last segment would be out (60 − 8) / (1.2 × 0.9) = 48 s from now, the player needs
        // it in 56 s; the next one 5.6 s from now, needed in 8 s.
        #expect(Self.claim(2, after: 5).makesPlayable)
    }

    @Test func aTitleEncodedNearOrBelowRealTimeWaitsUntilTheRestCanBeEncodedWhileTheStartPlays() {
        // At real time (6 s more after 6 s), the last segment would be out 52 / 0.9 = 58 s from now, but a player
        // reaches it in 56 s.
        #expect(!Self.claim(2, after: 6).makesPlayable)
        // At half of real time, 42 s more after 84 s: the last 16 s take 35.6 s, and the player needs them from
        // 44 s on.
        #expect(Self.claim(8, after: 84).makesPlayable)
        // But not 6 s more after 12 s: the rest would take 115 s, and the player is through in 52.
        #expect(!Self.claim(2, after: 12).makesPlayable)
    }

    /// A 10 s title encoded at 0.8× real time (a 4k source on 2 cores): in the default layout of 2 s segments at
    /// the start it says playable once 6 s are out, 5 s after its first publication; in a 2 s segment followed by
    /// 6 s ones, only once 8 s are out, 7.5 s after it.
    @Test func shortSegmentsAtTheStartLetATitleNearRealTimeSayPlayableSooner() {
        let frameRate = FrameRate(source: Rational(30, 1), keyframeInterval: 2)
        let start = ContinuousClock.now
        var short = PublicationPace(duration: 10, frameRate: frameRate, durations: TranscodeOptions().segmentDurations)
        #expect(short.boundaries == [0, 2, 4, 6, 8, 10])
        #expect(!short.publication(of: 1, now: start).makesPlayable)
        #expect(!short.publication(of: 2, now: start + .seconds(2.5)).makesPlayable, "the last 6 s would take 8.3 s, needed in 7.5 s")
        #expect(short.publication(of: 3, now: start + .seconds(5)).makesPlayable, "the last 4 s take 5.6 s, needed in 7.5 s")
        var long = PublicationPace(duration: 10, frameRate: frameRate, durations: SegmentDurations(first: 2, target: 6))
        #expect(long.boundaries == [0, 2, 8, 10])
        #expect(!long.publication(of: 1, now: start).makesPlayable)
        #expect(long.publication(of: 2, now: start + .seconds(7.5)).makesPlayable)
    }

    @Test func aTitleIsMadePlayableOnce() {
        var pace = PublicationPace(boundaries: Self.boundaries)
        let start = ContinuousClock.now
        #expect(!pace.publication(of: 1, now: start).makesPlayable)
        #expect(pace.publication(of: 2, now: start + .seconds(1)).makesPlayable)
        #expect(!pace.publication(of: 3, now: start + .seconds(2)).makesPlayable)
    }
}

/// Which rungs a growing title's master lists: the first group from its first segment, each other group once its
/// own publication stays ahead of a player starting then, never further than the first group.
@Suite(.timeLimit(.minutes(2))) struct RungGroupsTests {
    @Test func aLaggingGroupJoinsOnceItsOwnPaceStaysAheadAndNeverLeaves() {
        var groups = RungGroups([["360p"], ["720p", "1080p"]], pace: PublicationPace(boundaries: PublicationPaceTests.boundaries))
        let start = ContinuousClock.now
        #expect(groups.publish([1, 1], now: start) == (true, false))
        #expect(groups.listed("360p") == 1 && groups.listed("720p") == nil, "the first group is listed from its first segment")
        // The first group at 12× real time is playable; the others, at real time and then at 0.6×, stay out.
        #expect(groups.publish([2, 1], now: start + .seconds(0.5)) == (true, true))
        #expect(groups.publish([3, 2], now: start + .seconds(6)) == (true, false))
        #expect(groups.publish([3, 3], now: start + .seconds(20)) == (false, false), "a group not listed changes no playlist")
        #expect(groups.listed("1080p") == nil)
        // At half of real time the rest of the others is out before a player starting now needs it.
        #expect(groups.publish([11, 9], now: start + .seconds(84)) == (true, false))
        #expect(groups.listed("720p") == 9 && groups.listed("1080p") == 9 && groups.listed("360p") == 11)
        #expect(groups.publish([11, 10], now: start + .seconds(200)) == (true, false), "once listed, each segment is published")
    }

    @Test func aGroupIsNeverListedFurtherThanTheFirst() {
        var groups = RungGroups([["360p"], ["720p"]], pace: PublicationPace(boundaries: [0, 2, 8]))
        #expect(groups.publish([1, 2]) == (true, false), "the second group is complete: listed at once")
        #expect(groups.listed("720p") == 1, "no further than the first group, and the audio with it")
        #expect(RungGroups([["360p", "720p"]], pace: nil).listed("720p") == 0)
    }

    @Test func theSmallestRungLeadsAndTheOthersFollowInLadderOrder() throws {
        let plan = try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 3840, displayHeight: 2160)
        #expect(TranscodeJob.publicationGroups(of: plan).map { $0.map(\.name) } == [["720p"], ["1080p", "4k"]])
        #expect(TranscodeJob.publicationGroups(of: [plan[0]]).map { $0.map(\.name) } == [["720p"]], "one rung, one group")
    }
}
