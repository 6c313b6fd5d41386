import Foundation
import Glibc
import Synchronization
import Testing
@testable import VODEngine
import VODTestSupport

/// The smaller rungs give way to the largest one, thread by thread.
@Suite(.timeLimit(.minutes(2))) struct RungPriorityTests {
    @Test func theLargestRungIsTheOneWithTheMostPixels() throws {
        let plan = try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 3840, displayHeight: 2160)
        #expect(RungPriority.largest(of: plan).map { plan[$0].name } == "4k")
        let portrait = try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 1080, displayHeight: 1920)
        #expect(RungPriority.largest(of: portrait).map { portrait[$0].name } == "1080p")
    }

    @Test func yieldingLowersTheCallingThreadOnly() async throws {
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let inside = Mutex<(Int32, Int32)?>(nil)
        let done = ThreadEvent()
        Thread {
            let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            RungPriority.yieldToLargestRung()
            inside.withLock { $0 = (own, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)) }
            done.signal()
        }.start()
        await done.wait()
        let (own, lowered) = try #require(inside.withLock { $0 })
        #expect(lowered == min(own + RungPriority.niceness, 19), "the rung's thread runs \(RungPriority.niceness) nice steps lower")
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before, "other threads keep their priority")
    }

    /// A split title's track pass ran at the normal priority beside the chunk at the frontier, which runs lowered
    /// (every chunk after the first does): the sound, encoded far faster than real time, took the CPU the
    /// frontier needed, and a 3-minute upload became playable after 8.6 to 13.4 s instead of 4.6 to 6.7 s.
    @Test func theTrackPassRunsOnAThreadAsLowAsTheChunksAfterTheFirst() async throws {
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let own = try await RungPriority.onLoweredThread("vod.tracks", cancellation: CancellationFlag()) {
            getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        }
        #expect(own == min(before + RungPriority.niceness, 19))
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before, "the caller keeps its priority")
    }
}
