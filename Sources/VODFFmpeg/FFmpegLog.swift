import CFFmpeg

/// FFmpeg's own logging, which writes to standard error.
public enum FFmpegLog {
    private static let quieted: Void = {
        av_log_set_level(AV_LOG_ERROR)
        vod_install_log_callback()
    }()

    /// Keeps only FFmpeg's errors: encoder statistics and notices would flood a server's log. A decoder's
    /// errors are also kept for its failure reason (`Codec.lastLoggedError`). Idempotent.
    public static func keepErrorsOnly() { quieted }
}
