import ArgumentParser

/// How workers hold their jobs; shared by `vod serve` and `vod worker`.
struct QueueOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Seconds a worker's claim on a job lasts unless renewed; a job whose worker stops goes back to the queue after it (env VOD_LEASE; default 60).",
        valueName: "seconds"))
    var lease: Double?

    func validate() throws {
        guard try resolvedLease() >= 1 else { throw ValidationError("--lease must be at least 1 second.") }
    }

    func resolvedLease() throws -> Double {
        if let lease { return lease }
        guard let text = environment("VOD_LEASE") else { return 60 }
        guard let value = Double(text) else { throw ValidationError("VOD_LEASE must be a number of seconds, not '\(text)'.") }
        return value
    }
}
