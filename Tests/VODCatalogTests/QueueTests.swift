import Foundation
import Testing
import VODCatalog

@Suite struct QueueTests {
    @Test func claimsOldestPendingOnceAndCountsAttempts() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        let first = try await catalog.insert(TemporaryCatalog.newMedia("a"))
        let second = try await catalog.insert(TemporaryCatalog.newMedia("b"))
        let claimed = try await catalog.claimNextJob()
        #expect(claimed?.id == first.id)
        #expect(claimed?.status == .processing)
        #expect(claimed?.attempts == 1)
        #expect(try await catalog.claimNextJob()?.id == second.id)
        #expect(try await catalog.claimNextJob() == nil)
    }

    @Test func concurrentClaimsFromTwoConnectionsNeverShareAJob() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let one = try temp.open()
        let two = try temp.open()
        for index in 0..<40 { _ = try await one.insert(TemporaryCatalog.newMedia("m\(index)")) }
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for catalog in [one, two, one, two] {
                group.addTask {
                    var ids: [Int64] = []
                    while let job = try await catalog.claimNextJob() { ids.append(job.id) }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 40)
        #expect(Set(claimed).count == 40)
    }

    @Test func progressReadyAndFailedOnlyApplyWhileProcessing() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        let item = try await catalog.insert(TemporaryCatalog.newMedia("a"))
        try await catalog.recordProgress(id: item.id, fraction: 0.5)
        #expect(try await catalog.media(id: item.id)?.progress == 0)
        _ = try await catalog.claimNextJob()
        try await catalog.recordProgress(id: item.id, fraction: 0.5)
        #expect(try await catalog.media(id: item.id)?.progress == 0.5)
        let result = CompletedTranscode(hlsPath: "/out/1", duration: 3.0, variantsJSON: "[]")
        #expect(try await catalog.markReady(id: item.id, result: result))
        let ready = try #require(try await catalog.media(id: item.id))
        #expect(ready.status == .ready)
        #expect(ready.progress == 1)
        #expect(ready.hlsPath == "/out/1")
        #expect(ready.variantsJSON == "[]")
        #expect(try await catalog.markReady(id: item.id, result: result) == false)
        try await catalog.markFailed(id: item.id, reason: "late")
        #expect(try await catalog.media(id: item.id)?.status == .ready)
    }

    @Test func retryMovesOnlyFailedItemsBack() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        let item = try await catalog.insert(TemporaryCatalog.newMedia("a"))
        await #expect(throws: CatalogError.notFailed(.pending)) { try await catalog.retry(id: item.id) }
        _ = try await catalog.claimNextJob()
        try await catalog.markFailed(id: item.id, reason: "The file has no video stream")
        #expect(try await catalog.media(id: item.id)?.error == "The file has no video stream")
        let retried = try #require(try await catalog.retry(id: item.id))
        #expect(retried.status == .pending)
        #expect(retried.error == nil)
        #expect(retried.attempts == 0)
        #expect(try await catalog.retry(id: 999) == nil)
    }

    @Test func requeueDoesNotCountTheInterruptedAttempt() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        let item = try await catalog.insert(TemporaryCatalog.newMedia("a"))
        _ = try await catalog.claimNextJob()
        try await catalog.requeue(id: item.id)
        let requeued = try #require(try await catalog.media(id: item.id))
        #expect(requeued.status == .pending)
        #expect(requeued.attempts == 0)
    }

    @Test func recoveryRequeuesAbandonedJobsAndFailsThemAfterThreeAttempts() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let item = try await temp.open().insert(TemporaryCatalog.newMedia("a"))
        for attempt in 1...2 {
            let catalog = try temp.open()
            #expect(try await catalog.claimNextJob()?.attempts == attempt)
            let report = try await temp.open().recoverInterruptedJobs(maxAttempts: 3)
            #expect(report == RecoveryReport(requeued: [item.id], failed: []))
            #expect(try await catalog.media(id: item.id)?.status == .pending)
        }
        let catalog = try temp.open()
        #expect(try await catalog.claimNextJob()?.attempts == 3)
        let report = try await catalog.recoverInterruptedJobs(maxAttempts: 3)
        #expect(report == RecoveryReport(requeued: [], failed: [item.id]))
        let failed = try #require(try await catalog.media(id: item.id))
        #expect(failed.status == .failed)
        #expect(failed.error == "Transcoding was interrupted 3 times (the server stopped while it ran); giving up")
    }
}
