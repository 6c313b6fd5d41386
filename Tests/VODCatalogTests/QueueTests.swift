import Foundation
import Testing
import VODCatalog
import VODTestSupport

/// The persistent queue: claims under leases, fencing by lease token, reclaiming expired leases, and the worker
/// list, with the same assertions on every backend.
@Suite(.timeLimit(.minutes(2))) struct QueueTests {
    static let lease = Duration.seconds(60)

    @Test(arguments: CatalogBackend.tested)
    func claimsOldestPendingOnceAndCountsAttempts(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let first = try await catalog.insert(CatalogStore.newMedia("a"))
        let second = try await catalog.insert(CatalogStore.newMedia("b"))
        let claimed = try #require(try await catalog.claimNextJob(worker: "w1", lease: Self.lease))
        #expect(claimed.id == first.id && claimed.item.status == .processing && claimed.item.attempts == 1)
        #expect(claimed.token == 1 && claimed.worker == "w1")
        #expect(try await catalog.claimNextJob(worker: "w2", lease: Self.lease)?.id == second.id)
        #expect(try await catalog.claimNextJob(worker: "w1", lease: Self.lease) == nil)
    }

    @Test(arguments: CatalogBackend.tested)
    func concurrentClaimsFromTwoConnectionsNeverShareAJob(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let one = try await store.open()
        let two = try await store.open()
        for index in 0..<40 { _ = try await one.insert(CatalogStore.newMedia("m\(index)")) }
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for (index, catalog) in [one, two, one, two].enumerated() {
                group.addTask {
                    var ids: [Int64] = []
                    while let job = try await catalog.claimNextJob(worker: "w\(index)", lease: Self.lease) { ids.append(job.id) }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 40)
        #expect(Set(claimed).count == 40)
    }

    @Test(arguments: CatalogBackend.tested)
    func progressAndOutcomesApplyOnlyUnderTheCurrentLease(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("a"))
        let job = try #require(try await catalog.claimNextJob(worker: "w1", lease: Self.lease))
        let rungs = #"[{"rung":"720p","progress":0.6},{"rung":"1080p","progress":0.4}]"#
        #expect(try await catalog.recordProgress(job, fraction: 0.5, rungsJSON: rungs))
        #expect(try await catalog.media(id: item.id)?.progress == 0.5)
        #expect(try await catalog.media(id: item.id)?.rungProgressJSON == rungs)
        let result = CompletedTranscode(hlsPath: "/out/1", duration: 3.0, variantsJSON: "[]")
        #expect(try await catalog.markReady(job, result: result))
        let ready = try #require(try await catalog.media(id: item.id))
        #expect(ready.status == .ready && ready.progress == 1 && ready.hlsPath == "/out/1" && ready.variantsJSON == "[]")
        #expect(ready.tracksJSON == item.tracksJSON, "a result without tracks keeps the probe's")
        #expect(try await catalog.markReady(job, result: result) == false)
        #expect(try await catalog.markFailed(job, reason: "late") == false)
        #expect(try await catalog.recordProgress(job, fraction: 0.2, rungsJSON: nil) == false)
        #expect(try await catalog.media(id: item.id)?.status == .ready)

        let measured = try await catalog.insert(CatalogStore.newMedia("b"))
        let second = try #require(try await catalog.claimNextJob(worker: "w1", lease: Self.lease))
        let tracks = #"[{"index":1,"loudness":{"integrated":-23,"range":4,"true_peak":-2}}]"#
        #expect(try await catalog.markReady(second, result: CompletedTranscode(hlsPath: "/out/2", duration: 3, variantsJSON: "[]", tracksJSON: tracks)))
        #expect(try await catalog.media(id: measured.id)?.tracksJSON == tracks, "the transcode's tracks, with their loudness, replace the probe's")
    }

    @Test(.tags(.timeouts), arguments: CatalogBackend.tested) func anExpiredLeaseGoesBackToTheQueueAndItsHolderIsFencedOff(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("a"))
        let stale = try #require(try await catalog.claimNextJob(worker: "stalled", lease: .milliseconds(200)))
        #expect(try await catalog.recordProgress(stale, fraction: 0.3, rungsJSON: #"[{"rung":"720p","progress":0.3}]"#))
        #expect(try await catalog.reclaimLeases(maxAttempts: 3, deadWorkers: []).isEmpty, "the lease still runs")
        try await Task.sleep(for: .milliseconds(400))
        let report = try await catalog.reclaimLeases(maxAttempts: 3, deadWorkers: [])
        #expect(report == RecoveryReport(requeued: [item.id], failed: [], expired: [ExpiredLease(id: item.id, token: 1)]))
        let fresh = try #require(try await catalog.claimNextJob(worker: "healthy", lease: Self.lease))
        #expect(fresh.token == 2 && fresh.item.attempts == 2)
        #expect(fresh.item.progress == 0 && fresh.item.rungProgressJSON == nil, "a new attempt starts its progress afresh")
        let late = CompletedTranscode(hlsPath: "/out/late", duration: 3, variantsJSON: "[]")
        #expect(try await catalog.renewLease(stale, for: Self.lease) == false)
        #expect(try await catalog.recordProgress(stale, fraction: 0.9, rungsJSON: nil) == false)
        #expect(try await catalog.markReady(stale, result: late) == false)
        #expect(try await catalog.markFailed(stale, reason: "late") == false)
        #expect(try await catalog.markReady(fresh, result: CompletedTranscode(hlsPath: "/out/fresh", duration: 3, variantsJSON: "[]")))
        #expect(try await catalog.media(id: item.id)?.hlsPath == "/out/fresh")
    }

    @Test(arguments: CatalogBackend.tested)
    func renewingKeepsALeaseAndDeadWorkersLoseTheirsAtOnce(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let kept = try await catalog.insert(CatalogStore.newMedia("kept"))
        let orphaned = try await catalog.insert(CatalogStore.newMedia("orphaned"))
        let job = try #require(try await catalog.claimNextJob(worker: "alive", lease: .milliseconds(300)))
        _ = try await catalog.claimNextJob(worker: "killed", lease: Self.lease)
        #expect(try await catalog.renewLease(job, for: Self.lease))
        try await Task.sleep(for: .milliseconds(500))
        let report = try await catalog.reclaimLeases(maxAttempts: 3, deadWorkers: ["killed"])
        #expect(report.requeued == [orphaned.id] && report.failed.isEmpty)
        #expect(try await catalog.media(id: kept.id)?.status == .processing)
    }

    @Test(arguments: CatalogBackend.tested)
    func aJobWhoseWorkerStopsThreeTimesFailsWithTheReason(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("a"))
        for attempt in 1...3 {
            #expect(try await catalog.claimNextJob(worker: "w\(attempt)", lease: Self.lease)?.item.attempts == attempt)
            let report = try await catalog.reclaimLeases(maxAttempts: 3, deadWorkers: ["w\(attempt)"])
            #expect(report.requeued == (attempt < 3 ? [item.id] : []) && report.failed == (attempt < 3 ? [] : [item.id]))
        }
        let failed = try #require(try await catalog.media(id: item.id))
        #expect(failed.status == .failed)
        #expect(failed.error == "Transcoding was interrupted 3 times (its worker stopped or lost its lease while it ran); giving up")
    }

    @Test(arguments: CatalogBackend.tested)
    func retryMovesOnlyFailedItemsBack(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("a"))
        await #expect(throws: CatalogError.notFailed(.pending)) { try await catalog.retry(id: item.id) }
        let job = try #require(try await catalog.claimNextJob(worker: "w1", lease: Self.lease))
        #expect(try await catalog.markFailed(job, reason: "The file has no video stream"))
        #expect(try await catalog.media(id: item.id)?.error == "The file has no video stream")
        let retried = try #require(try await catalog.retry(id: item.id))
        #expect(retried.status == .pending && retried.error == nil && retried.attempts == 0)
        #expect(try await catalog.retry(id: 999) == nil)
    }

    @Test(arguments: CatalogBackend.tested)
    func requeueDoesNotCountTheInterruptedAttempt(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("a"))
        let job = try #require(try await catalog.claimNextJob(worker: "w1", lease: Self.lease))
        try await catalog.requeue(job)
        let requeued = try #require(try await catalog.media(id: item.id))
        #expect(requeued.status == .pending && requeued.attempts == 0)
    }

    @Test(arguments: CatalogBackend.tested)
    func workersReportTheirJobAndLeaseUntilTheyLeave(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("a"))
        try await catalog.recordHeartbeat(WorkerHeartbeat(id: "host-a:10:x#0", host: "host-a", pid: 10, jobsDone: 0))
        try await catalog.recordHeartbeat(WorkerHeartbeat(id: "host-b:20:y#0", host: "host-b", pid: 20, jobsDone: 4))
        _ = try await catalog.claimNextJob(worker: "host-a:10:x#0", lease: Self.lease)
        try await catalog.recordHeartbeat(WorkerHeartbeat(id: "host-a:10:x#0", host: "host-a", pid: 10, jobsDone: 1))
        let workers = try await catalog.workers()
        #expect(workers.map(\.id) == ["host-a:10:x#0", "host-b:20:y#0"])
        #expect(workers.map(\.currentJob) == [item.id, nil] && workers.map(\.jobsDone) == [1, 4])
        #expect(workers[0].leaseExpiresAt?.hasSuffix("Z") == true && workers[1].leaseExpiresAt == nil)
        try await catalog.removeWorker(id: "host-a:10:x#0")
        #expect(try await catalog.workers().map(\.id) == ["host-b:20:y#0"])
    }
}
