import Foundation
import Logging
import VODEngine

extension TranscodeService {
    /// Writes the poster and storyboard of a finished title from its renditions, on a thread of its own, while
    /// the lease is still kept. Pictures never fail a title: an error is logged and the title is made ready
    /// without them (`poster_url` null).
    func writeStills(_ result: TranscodeResult, logger: Logger) async {
        let folder = URL(fileURLWithPath: result.outputDirectory)
        let interval = transcoder.options.keyframeInterval
        let cancellation = CancellationFlag()
        let write = stillsWriter
        do {
            let manifest = try await DedicatedThread.run("vod.stills", cancellation: cancellation) {
                try write(folder, interval, cancellation)
            }
            if let manifest {
                logger.info("poster and storyboard written", metadata: [
                    "poster_time": "\(manifest.posterTime)", "tiles": "\(manifest.storyboard.tiles)",
                ])
            }
        } catch let error where !Self.isCancellation(error) {
            logger.error("the poster and storyboard could not be written; the title is ready without them",
                         metadata: ["error": "\(error)"])
        } catch {
            logger.notice("writing the poster and storyboard was interrupted")
        }
    }
}
