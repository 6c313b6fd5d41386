import CFFmpeg

/// FFmpeg's own logging, which writes to standard error.
public enum FFmpegLog {
    private static let quieted: Void = av_log_set_level(AV_LOG_ERROR)

    /// Keeps only FFmpeg's errors: encoder statistics and notices would flood a server's log. Idempotent.
    public static func keepErrorsOnly() { quieted }
}
