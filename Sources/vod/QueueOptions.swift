import ArgumentParser
import VODService

/// How workers hold their jobs; shared by `vod serve` and `vod worker`.
struct QueueOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Seconds a worker's claim on a job lasts unless renewed; a job whose worker stops goes back to the queue after it (env VOD_LEASE; default 60).",
        valueName: "seconds"))
    var lease: Double?

    @Option(help: ArgumentHelp(
        "Titles longer than this are split into chunks that every worker encodes at once; 0 splits none (env VOD_SPLIT_AFTER; default 120).",
        valueName: "seconds"))
    var splitAfter: Double?

    @Option(help: ArgumentHelp(
        "The length of a chunk of a split title, the first one excepted, which lasts one segment (env VOD_CHUNK_SECONDS; default 30).",
        valueName: "seconds"))
    var chunkSeconds: Double?

    func validate() throws {
        guard try resolvedLease() >= 1 else { throw ValidationError("--lease must be at least 1 second.") }
        let policy = try splitPolicy()
        guard (policy.after ?? 0) >= 0 else { throw ValidationError("--split-after must not be negative.") }
        guard policy.chunkSeconds >= 6 else { throw ValidationError("--chunk-seconds must be at least 6.") }
    }

    /// Which titles the workers split, and into what.
    func splitPolicy() throws -> SplitPolicy {
        let after = try splitAfter ?? number("VOD_SPLIT_AFTER") ?? 120
        return SplitPolicy(after: after == 0 ? nil : after, chunkSeconds: try chunkSeconds ?? number("VOD_CHUNK_SECONDS") ?? 30)
    }

    private func number(_ variable: String) throws -> Double? {
        guard let text = environment(variable) else { return nil }
        guard let value = Double(text) else { throw ValidationError("\(variable) must be a number of seconds, not '\(text)'.") }
        return value
    }

    func resolvedLease() throws -> Double {
        if let lease { return lease }
        guard let text = environment("VOD_LEASE") else { return 60 }
        guard let value = Double(text) else { throw ValidationError("VOD_LEASE must be a number of seconds, not '\(text)'.") }
        return value
    }
}
