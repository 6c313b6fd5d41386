import Foundation
import Testing
import VODCatalog
import VODTestSupport

/// The chunk queue: chunks added under a title's lease, claimed under their own leases, fenced by token,
/// reclaimed when a lease runs out, with the same assertions on every backend.
@Suite(.timeLimit(.minutes(2))) struct ChunkQueueTests {
    static let lease = Duration.seconds(60)

    /// A new title claimed by `worker`, with `count` chunks added under its lease.
    static func leasedTitle(_ catalog: any MediaStore & JobQueue & ChunkQueue, _ title: String, chunks count: Int, worker: String = "title-worker")
        async throws -> JobLease {
        _ = try await catalog.insert(CatalogStore.newMedia(title))
        let job = try #require(try await catalog.claimNextJob(worker: worker, lease: lease))
        #expect(job.item.title == title)
        let specs = (0..<count).map { #"{"chunk":\#($0)}"# }
        #expect(try await catalog.addChunks(job, outputPath: "/out/\(title)/1", specs: specs))
        return job
    }

    @Test(arguments: CatalogBackend.tested)
    func chunksAreAddedOnlyUnderTheTitlesCurrentLease(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("long"))
        let stale = try #require(try await catalog.claimNextJob(worker: "killed", lease: Self.lease))
        _ = try await catalog.reclaimLeases(maxAttempts: 3, deadWorkers: ["killed"])
        let current = try #require(try await catalog.claimNextJob(worker: "w1", lease: Self.lease))
        #expect(try await catalog.addChunks(stale, outputPath: "/out/long/1", specs: ["{}", "{}"]) == false)
        #expect(try await catalog.chunks(of: item.id).isEmpty)
        #expect(try await catalog.addChunks(current, outputPath: "/out/long/2", specs: ["a", "b", "c"]))
        #expect(try await catalog.chunks(of: item.id) == ["a", "b", "c"].enumerated().map { index, spec in
            ChunkJob(mediaID: item.id, index: index, outputPath: "/out/long/2", specJSON: spec, status: .pending,
                     attempts: 0, error: nil, leaseToken: 0)
        })
        #expect(try await catalog.addChunks(current, outputPath: "/out/long/2", specs: ["x"]))
        #expect(try await catalog.chunks(of: item.id).map(\.specJSON) == ["x"], "adding replaces the title's chunks")
        #expect(try await catalog.addChunks(stale, outputPath: "/out/long/1", specs: []) == false)
        #expect(try await catalog.chunks(of: item.id).count == 1, "a stale lease removes nothing either")
    }

    @Test(arguments: CatalogBackend.tested)
    func claimsTakeChunksInOrderAndCountTheAttempt(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let first = try await Self.leasedTitle(catalog, "a", chunks: 2)
        let second = try await Self.leasedTitle(catalog, "b", chunks: 1)
        var claimed: [ChunkLease] = []
        while let chunk = try await catalog.claimNextChunk(worker: "w\(claimed.count)", lease: Self.lease, mediaID: nil) {
            claimed.append(chunk)
        }
        #expect(claimed.map { [$0.chunk.mediaID, Int64($0.chunk.index)] } == [[first.id, 0], [first.id, 1], [second.id, 0]])
        #expect(claimed.map(\.worker) == ["w0", "w1", "w2"] && claimed.allSatisfy { $0.token == 1 })
        #expect(claimed.allSatisfy { $0.chunk.status == .processing && $0.chunk.attempts == 1 && $0.chunk.leaseToken == 1 })
        #expect(claimed[1].chunk.specJSON == #"{"chunk":1}"# && claimed[1].chunk.outputPath == "/out/a/1")
        #expect(try await catalog.chunks(of: first.id).map(\.status) == [.processing, .processing])
    }

    @Test(arguments: CatalogBackend.tested)
    func concurrentClaimsNeverShareAChunk(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let one = try await store.open()
        let two = try await store.open()
        let title = try await Self.leasedTitle(one, "long", chunks: 100)
        let claimed = try await withThrowingTaskGroup(of: [Int].self) { group in
            for claimer in 0..<20 {
                let catalog = claimer.isMultiple(of: 2) ? one : two
                group.addTask {
                    var indices: [Int] = []
                    while let chunk = try await catalog.claimNextChunk(worker: "w\(claimer)", lease: Self.lease, mediaID: nil) {
                        indices.append(chunk.chunk.index)
                    }
                    return indices
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 100)
        #expect(Set(claimed) == Set(0..<100))
        #expect(try await one.chunks(of: title.id).allSatisfy { $0.status == .processing && $0.attempts == 1 })
    }

    @Test(arguments: CatalogBackend.tested)
    func claimsTakeOnlyTheGivenTitleAndOnlyTitlesStillProcessing(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let first = try await Self.leasedTitle(catalog, "a", chunks: 2)
        let second = try await Self.leasedTitle(catalog, "b", chunks: 2)
        let chosen = try #require(try await catalog.claimNextChunk(worker: "w1", lease: Self.lease, mediaID: second.id))
        #expect(chosen.chunk.mediaID == second.id && chosen.chunk.index == 0)
        #expect(try await catalog.claimNextChunk(worker: "w1", lease: Self.lease, mediaID: 999) == nil)
        #expect(try await catalog.markFailed(first, reason: "The file has no video stream"))
        let next = try #require(try await catalog.claimNextChunk(worker: "w1", lease: Self.lease, mediaID: nil))
        #expect(next.chunk.mediaID == second.id && next.chunk.index == 1, "a failed title's chunks are not claimed")
        try await catalog.requeue(second)
        _ = try await catalog.retry(id: first.id)
        #expect(try await catalog.media(id: first.id)?.status == .pending)
        #expect(try await catalog.media(id: second.id)?.status == .pending)
        #expect(try await catalog.claimNextChunk(worker: "w1", lease: Self.lease, mediaID: nil) == nil,
                "a pending title's chunks are not claimed")
        #expect(try await catalog.chunks(of: first.id).map(\.status) == [.pending, .pending])
    }

    @Test(.tags(.timeouts), arguments: CatalogBackend.tested) func anExpiredChunkLeaseGoesBackAndItsHolderIsFencedOff(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let title = try await Self.leasedTitle(catalog, "long", chunks: 1)
        let stale = try #require(try await catalog.claimNextChunk(worker: "stalled", lease: .milliseconds(200), mediaID: nil))
        #expect(try await catalog.renewChunkLease(stale, for: .milliseconds(200)))
        #expect(try await catalog.reclaimChunkLeases(maxAttempts: 3, deadWorkers: []) == 0, "the lease still runs")
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await catalog.reclaimChunkLeases(maxAttempts: 3, deadWorkers: []) == 1)
        #expect(try await catalog.chunks(of: title.id).map(\.status) == [.pending])
        let fresh = try #require(try await catalog.claimNextChunk(worker: "healthy", lease: Self.lease, mediaID: nil))
        #expect(fresh.token == 2 && fresh.chunk.attempts == 2)
        #expect(try await catalog.renewChunkLease(stale, for: Self.lease) == false)
        #expect(try await catalog.markChunkDone(stale) == false)
        #expect(try await catalog.markChunkFailed(stale, reason: "late", maxAttempts: 3) == nil)
        try await catalog.requeueChunk(stale)
        #expect(try await catalog.chunks(of: title.id).map(\.status) == [.processing], "a stale requeue changes nothing")
        #expect(try await catalog.renewChunkLease(fresh, for: Self.lease))
        #expect(try await catalog.markChunkDone(fresh))
        #expect(try await catalog.markChunkDone(fresh) == false, "a done chunk is no longer leased")
        #expect(try await catalog.renewChunkLease(fresh, for: Self.lease) == false)
        let done = try await catalog.chunks(of: title.id)
        #expect(done.map(\.status) == [.done] && done.map(\.attempts) == [2] && done.map(\.leaseToken) == [2])
    }

    @Test(arguments: CatalogBackend.tested)
    func aFailedAttemptGoesBackUntilTheLastOneFailsTheChunk(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let title = try await Self.leasedTitle(catalog, "long", chunks: 1)
        var last: ChunkLease?
        for attempt in 1...3 {
            let chunk = try #require(try await catalog.claimNextChunk(worker: "w\(attempt)", lease: Self.lease, mediaID: nil))
            #expect(chunk.chunk.attempts == attempt && chunk.chunk.error == nil)
            let status = try await catalog.markChunkFailed(chunk, reason: "decoder error \(attempt)", maxAttempts: 3)
            #expect(status == (attempt < 3 ? .pending : .failed))
            last = chunk
        }
        let failed = try await catalog.chunks(of: title.id)
        #expect(failed.map(\.status) == [.failed] && failed.map(\.error) == ["decoder error 3"] && failed.map(\.attempts) == [3])
        #expect(try await catalog.claimNextChunk(worker: "w4", lease: Self.lease, mediaID: nil) == nil)
        #expect(try await catalog.markChunkFailed(try #require(last), reason: "again", maxAttempts: 3) == nil)
    }

    @Test(arguments: CatalogBackend.tested)
    func requeueDoesNotCountTheInterruptedAttempt(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let title = try await Self.leasedTitle(catalog, "long", chunks: 1)
        let chunk = try #require(try await catalog.claimNextChunk(worker: "w1", lease: Self.lease, mediaID: nil))
        try await catalog.requeueChunk(chunk)
        let requeued = try await catalog.chunks(of: title.id)
        #expect(requeued.map(\.status) == [.pending] && requeued.map(\.attempts) == [0])
        let again = try #require(try await catalog.claimNextChunk(worker: "w2", lease: Self.lease, mediaID: nil))
        #expect(again.chunk.attempts == 1 && again.token == 2)
    }

    @Test(arguments: CatalogBackend.tested)
    func deadWorkersLoseTheirChunksAndTheLastLossFailsTheChunk(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let title = try await Self.leasedTitle(catalog, "long", chunks: 2)
        _ = try #require(try await catalog.claimNextChunk(worker: "alive", lease: Self.lease, mediaID: nil))
        for attempt in 1...3 {
            let chunk = try #require(try await catalog.claimNextChunk(worker: "killed\(attempt)", lease: Self.lease, mediaID: nil))
            #expect(chunk.chunk.index == 1 && chunk.chunk.attempts == attempt)
            #expect(try await catalog.reclaimChunkLeases(maxAttempts: 3, deadWorkers: ["killed\(attempt)", "gone"]) == 1)
            let statuses = try await catalog.chunks(of: title.id).map(\.status)
            #expect(statuses == [.processing, attempt < 3 ? .pending : .failed])
        }
        let failed = try await catalog.chunks(of: title.id)[1]
        #expect(failed.error == "The lease on this chunk ran out 3 times (its worker stopped or hung while it ran); giving up")
        #expect(try await catalog.reclaimChunkLeases(maxAttempts: 3, deadWorkers: []) == 0)
    }

    @Test(arguments: CatalogBackend.tested)
    func chunksGoWithTheirTitleOrWhenRemoved(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let deleted = try await Self.leasedTitle(catalog, "a", chunks: 2)
        let kept = try await Self.leasedTitle(catalog, "b", chunks: 3)
        _ = try #require(try await catalog.claimNextChunk(worker: "w1", lease: Self.lease, mediaID: deleted.id))
        #expect(try await catalog.delete(id: deleted.id)?.id == deleted.id)
        #expect(try await catalog.chunks(of: deleted.id).isEmpty, "deleting the title deletes its chunks")
        #expect(try await catalog.chunks(of: kept.id).count == 3)
        try await catalog.removeChunks(of: kept.id)
        #expect(try await catalog.chunks(of: kept.id).isEmpty)
        #expect(try await catalog.claimNextChunk(worker: "w1", lease: Self.lease, mediaID: nil) == nil)
    }
}
