import Hummingbird
import Logging
import VODEngine
import VODServer

extension TestLibrary {
    /// A server on a free loopback port, without workers, set up by `change`; logging to `logger`.
    func app(
        logger: Logger = Logger(label: "vod-test", factory: { _ in SwiftLogNoOpLogHandler() }),
        _ change: (inout VODServerConfiguration) -> Void
    ) -> some ApplicationProtocol {
        var configuration = VODServerConfiguration(
            host: "127.0.0.1", port: 0, workers: 0, maxUploadSize: 1 << 30,
            transcodeOptions: TranscodeOptions(ladder: TestLibrary.ladder, preset: "ultrafast")
        )
        change(&configuration)
        return buildApplication(configuration: configuration, library: library, logger: logger)
    }
}
