/// Where the transcode workers count the jobs they start, finish and fail, and the speed of finished ones; the
/// server's metrics implement it.
package protocol TranscodeMetrics: Sendable {
    /// Counts a transcode this process started.
    func recordTranscodeStarted()
    /// Counts a transcode this process finished ready: `mediaSeconds` of media in `wall` time.
    func recordTranscodeDone(mediaSeconds: Double, wall: Duration)
    /// Counts a transcode this process failed, with a reason in the catalog.
    func recordTranscodeFailed()
}
