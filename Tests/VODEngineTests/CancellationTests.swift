import Foundation
import Testing
import VODEngine
import VODTestSupport

@Suite("Cancelling a transcode", .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10)))
struct CancellationTests {
    /// Measured on a thread of its own, not on Swift's cooperative pool, which other tests may keep busy: what is
    /// measured is the engine's own stop, from the flag to its return.
    @Test(.tags(.timeouts)) func theInterruptFlagStopsTheEngineWithinASecondAndLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 1280, height: 720, duration: 40).make(in: directory.url, name: "long")
        let output = directory.url.appendingPathComponent("out").path
        let flag = CancellationFlag()
        let started = ThreadEvent()
        let finished = ThreadEvent()
        let outcome = Outcome()
        let once = OnceFlag()
        let thread = Thread {
            do {
                _ = try Transcoder().transcodeBlocking(input: clip, outputDirectory: output, cancellation: flag) { _ in
                    if once.claim() { started.signal() }
                }
                outcome.set("finished")
            } catch is CancellationError {
                outcome.set("cancelled")
            } catch {
                outcome.set("\(error)")
            }
            outcome.stop()
            finished.signal()
        }
        thread.start()
        await started.wait()
        let cancelled = Date()
        flag.cancel()
        await finished.wait()
        let elapsed = try #require(outcome.stoppedAt).timeIntervalSince(cancelled)
        #expect(outcome.value == "cancelled")
        #expect(elapsed < 1, "stopped \(elapsed) s after the flag was set")
        #expect(try directory.entries() == ["long.mp4"], "no rendition and no staging folder remain")
    }

    @Test func cancellingTheTaskThrowsCancellationErrorAndLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 1280, height: 720, duration: 20).make(in: directory.url, name: "long")
        let output = directory.url.appendingPathComponent("out").path
        let started = OnceFlag()
        let task = Task {
            try await Transcoder().transcode(input: clip, outputDirectory: output) { _ in _ = started.claim() }
        }
        while !started.isClaimed { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try directory.entries() == ["long.mp4"], "no rendition and no staging folder remain")
    }
}

/// A flag that is claimed once, from any thread.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    /// True for the first caller only.
    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }

    var isClaimed: Bool { lock.withLock { claimed } }
}

/// How the engine thread ended, and when.
final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?
    private var stopped: Date?

    func set(_ value: String) { lock.withLock { text = value } }
    func stop() { lock.withLock { stopped = Date() } }
    var value: String? { lock.withLock { text } }
    var stoppedAt: Date? { lock.withLock { stopped } }
}
