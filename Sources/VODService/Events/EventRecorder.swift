import Logging
import VODCatalog

/// Writes what happens to items into the catalog's event log, which status streams (SSE, WebSocket) and webhooks
/// read, whichever process or machine they run on.
///
/// An event is recorded right after the change it reports has been committed. Recording never fails the change:
/// an event the catalog could not take is logged and lost.
public struct EventRecorder: Sendable {
    let catalog: any EventLog & MediaStore
    /// This process's readers of the log, woken at each event so that they need not wait for their next poll.
    package let wakeups = JobWakeups()
    let logger = Logger(label: "vod.events")

    /// Records `type` with `item` as it is now.
    package func record(_ type: MediaEventType, item: MediaItem) async {
        do {
            _ = try await catalog.appendEvent(type, item: item)
            wakeups.wakeAll()
        } catch {
            logger.error("recording an event failed", metadata: ["event": "\(type.rawValue)", "media.id": "\(item.id)", "error": "\(error)"])
        }
    }

    /// Records `type` with item `id` as the catalog has it now; nothing when the item is gone.
    package func record(_ type: MediaEventType, id: Int64) async {
        do {
            guard let item = try await catalog.media(id: id) else { return }
            await record(type, item: item)
        } catch {
            logger.error("recording an event failed", metadata: ["event": "\(type.rawValue)", "media.id": "\(id)", "error": "\(error)"])
        }
    }
}
