import VODService

extension ServiceMetrics: TranscodeMetrics {
    func recordTranscodeStarted() {
        jobsStarted.increment()
    }

    func recordTranscodeDone(mediaSeconds: Double, wall: Duration) {
        jobsDone.increment()
        guard wall > .zero else { return }
        transcodeSpeed.record(mediaSeconds / wall.seconds)
        lastTranscodeSpeed.set(mediaSeconds / wall.seconds)
    }

    func recordTranscodeFailed() {
        jobsFailed.increment()
    }
}
