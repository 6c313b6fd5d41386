import Foundation
import Logging
import ServiceLifecycle

/// Removes expired resumable uploads: at start, then every minute (or every expiry period, when shorter),
/// until the server stops.
struct TusExpiryService: Service {
    let store: TusStore
    let logger: Logger

    /// How long the sweep waits between two passes.
    var interval: Duration { .milliseconds(Int(min(60, store.expiry) * 1000)) }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let removed = store.removeExpired()
                if !removed.isEmpty { logger.info("expired uploads removed", metadata: ["uploads": "\(removed)"]) }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
