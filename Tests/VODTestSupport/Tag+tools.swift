import Testing

/// What a test needs besides the built products, so that `Scripts/test --fast` can leave out every test that
/// needs something else (see `ExternalTool.withoutTools`).
extension Tag {
    /// Runs Debian's ffmpeg or ffprobe: synthetic clips, and output checked as an independent client would.
    @Tag public static var ffmpeg: Self
    /// Plays a stream in GStreamer's gst-launch-1.0, an independent player.
    @Tag public static var gstreamer: Self
    /// Drives Debian's Chromium through playwright.
    @Tag public static var browser: Self
    /// Starts a throwaway PostgreSQL server (initdb and pg_ctl).
    @Tag public static var postgres: Self
    /// Reads the real sample media of `../shared/media`.
    @Tag public static var sharedMedia: Self
    /// Runs other programs: the built `vod`, curl, python3, openssl, wrk and the like.
    @Tag public static var processes: Self
    /// Measures a timeline against the real clock, so it runs alone rather than beside other tests.
    @Tag public static var realTime: Self
    /// Waits for a deadline of its own to pass (a lease, an idle or upload timeout, a stop within a second) and
    /// checks what happens then, with little work of its own: it runs after the busy tests, beside the others
    /// like it, so that a busy machine does not move its deadlines.
    @Tag public static var timeouts: Self
}

extension Trait where Self == ConditionTrait {
    /// Leaves the test out of a run without external tools (`Scripts/test --fast`); it runs in every other run.
    /// `swift test` of Swift 6.3 has no tag filter, so this condition stands beside the tags that say which tools.
    public static var needsExternalTools: Self {
        .disabled(if: ExternalTool.withoutTools, "needs an external tool, which `Scripts/test --fast` leaves out")
    }
}
