import Logging
import VODService

extension TranscodeService {
    /// The transcode workers `configuration` asks for, counted in `metrics`.
    init(library: MediaLibrary, jobs: RunningJobs, configuration: VODServerConfiguration, metrics: ServiceMetrics, logger: Logger) {
        self.init(
            library: library, jobs: jobs, transcodeOptions: configuration.transcodeOptions, workers: configuration.workers,
            maxAttempts: configuration.maxAttempts, pollInterval: configuration.pollInterval, timeLimit: configuration.jobTimeLimit,
            lease: configuration.lease, split: configuration.split, stillsWriter: configuration.writeStills, metrics: metrics,
            logger: logger
        )
    }
}
