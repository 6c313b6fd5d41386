import Foundation
import Synchronization
import Testing
import VODClient
import VODModel
import VODTestSupport

/// What an upload's progress callback was called with, in order.
final class ProgressLog: Sendable {
    private let values = Mutex<[UploadProgress]>([])

    var reports: [UploadProgress] { values.withLock { $0 } }

    func record(_ progress: UploadProgress) {
        values.withLock { $0.append(progress) }
    }

    /// Checks that the bytes sent only grew, and ended at the file's size.
    func expectComplete(size: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let sent = reports.map(\.bytesSent)
        #expect(sent.last == Int64(size), "\(sent)", sourceLocation: sourceLocation)
        #expect(sent == sent.sorted(), "\(sent)", sourceLocation: sourceLocation)
        #expect(reports.allSatisfy { $0.totalBytes == Int64(size) }, sourceLocation: sourceLocation)
        #expect(reports.last?.fractionCompleted == 1, sourceLocation: sourceLocation)
    }
}

/// A 2-second 320x180 clip with sound, and its size.
func tinyClip(in directory: TemporaryDirectory, name: String = "clip") async throws -> (url: URL, size: Int) {
    let path = try await SyntheticClip(width: 320, height: 180, duration: 2).make(in: directory.url, name: name)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    return (URL(fileURLWithPath: path), size)
}

/// The uploads the server's tus endpoint holds (their data and record files).
func tusUploads(of server: ServeProcess) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: server.mediaDirectory + "/.uploads")) ?? []
}

/// The events of `events` until (and with) the first one of `type`.
func collect(_ events: StatusEvents, until type: MediaEventType) async throws -> [StatusEvent] {
    var collected: [StatusEvent] = []
    for try await event in events {
        collected.append(event)
        if event.type == type { break }
    }
    return collected
}
