import Foundation
import Synchronization
import Testing
@testable import VODService

/// A worker's lease keeper gives the work up once its lease is no longer confirmed: taken by another claim, or
/// not renewed before it ran out, even when a renewal never answers (a catalog connection that hangs).
@Suite struct LeaseKeeperTests {
    @Test func aRenewalThatNeverAnswersLosesTheLeaseWhenItRunsOut() async throws {
        let calls = Atomic<Int>(0)
        let keeper = LeaseKeeper(lease: .milliseconds(600)) {
            calls.add(1, ordering: .relaxed)
            // Hangs, as a query on a connection that never answers does, and ignores cancellation.
            try? await Task.sleep(for: .seconds(3600))
            return true
        }
        let started = ContinuousClock.now
        await #expect(throws: LeaseLost.self) { try await keeper.run() }
        let took = ContinuousClock.now - started
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(took >= .milliseconds(600) && took < .seconds(5), "given up when the lease ran out, not when the call ended: \(took)")
    }

    @Test func aLeaseTakenByAnotherClaimIsLostAtTheNextRenewal() async throws {
        let answers = Mutex([true, true, false])
        let keeper = LeaseKeeper(lease: .milliseconds(300)) { answers.withLock { $0.removeFirst() } }
        await #expect(throws: LeaseLost.self) { try await keeper.run() }
        #expect(answers.withLock { $0.isEmpty })
    }

    @Test func aRenewalThatAnswersInTimeKeepsItsValue() async throws {
        let value = try await LeaseKeeper.value(before: .now + .seconds(10)) {
            try await Task.sleep(for: .milliseconds(50))
            return 42
        }
        #expect(value == 42)
        let late = try await LeaseKeeper.value(before: .now + .milliseconds(50)) {
            try? await Task.sleep(for: .seconds(3600))
            return 42
        }
        #expect(late == nil)
    }
}
