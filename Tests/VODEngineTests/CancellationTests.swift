import Foundation
import Testing
import VODEngine
import VODTestSupport

@Suite("Cancelling a transcode")
struct CancellationTests {
    @Test func cancellationStopsWithinASecondAndLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let clip = try SyntheticClip(width: 1280, height: 720, duration: 40).make(in: directory.url, name: "long")
        let output = directory.url.appendingPathComponent("out").path
        let started = ProgressFlag()
        let task = Task {
            try await Transcoder(options: TranscodeOptions(preset: "veryfast")).transcode(input: clip, outputDirectory: output) { _ in
                started.set()
            }
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(20)) }
        let cancelled = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let elapsed = ContinuousClock.now - cancelled
        #expect(elapsed < .seconds(1), "stopped \(elapsed) after cancel")
        #expect(try directory.entries() == ["long.mp4"], "no rendition and no staging folder remain")
    }
}

/// A flag set from a progress callback and read by the test.
final class ProgressFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
