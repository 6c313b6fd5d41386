import Testing
import VODCatalog
@testable import VODServer

/// An event rendered once per base URL reads, for every reader, as if rendered for that reader alone.
@Suite(.timeLimit(.minutes(2))) struct EventRendererTests {
    static func event(id: Int64, title: String) throws -> MediaEvent {
        let item = MediaItem(
            id: 7, title: title, description: nil, status: .pending, hlsPath: nil, duration: 12, progress: 0, error: nil,
            sourceFileName: "clip.mp4", sourcePath: "/media/clip.mp4", sourceSize: 100, probeJSON: nil, variantsJSON: nil,
            attempts: 0, createdAt: "2026-11-24T10:00:00.000Z", updatedAt: "2026-11-24T10:00:00.000Z", leaseToken: 0
        )
        return MediaEvent(id: id, type: .created, mediaID: 7, itemJSON: try MediaEvent.encode(item), createdAt: item.createdAt)
    }

    @Test func rendersEachEventForEachBaseURLAsAReaderAloneWouldSeeIt() throws {
        let storedJSON = StoredJSONCache()
        let renderer = EventRenderer(storedJSON: storedJSON)
        let first = try Self.event(id: 1, title: "first")
        let second = try Self.event(id: 2, title: "second")
        for _ in 0..<3 {
            for event in [first, second] {
                for base in ["http://localhost:3000", "https://cdn.example.com"] {
                    let json = try renderer.json(of: event, baseURL: base)
                    #expect(json == (try EventMessage(event, baseURL: base, storedJSON: storedJSON).json))
                    #expect(json.contains("\"stream_url\":\"\(base)/api/media/7/stream\""))
                    #expect(try renderer.serverSentEvent(of: event, baseURL: base) == "id: \(event.id)\nevent: media.created\ndata: \(json)\n\n")
                }
            }
        }
    }
}
