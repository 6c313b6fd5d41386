import CFFmpeg

/// glibc's allocator, as long-running transcoding processes need it.
public enum MallocArenas {
    /// Caps glibc's malloc arenas at two. By default glibc gives threads up to eight arenas per core, and each
    /// transcode starts threads of its own (decode, one per rung), so a server running job after job kept the
    /// freed memory of ever more arenas: its resident memory grew by about 75 MB over 22 uploads, and by
    /// nothing with two arenas. FFmpeg reuses its buffers through pools, so its threads seldom contend.
    public static func limitForLongRunningProcess() {
        _ = vod_limit_malloc_arenas(2)
    }

    /// Gives the memory the arenas hold free back to the system. A transcode frees tens of megabytes of
    /// pictures and encoder state at its end, which glibc otherwise keeps for the process: a server's resident
    /// memory then rose with the interleaving of its threads (3 MB over seven ladders on an idle machine, 16 MB
    /// on a loaded one) though nothing was lost.
    public static func releaseFreeMemory() {
        vod_release_free_memory()
    }
}
