import ArgumentParser
import VODServer

/// Write protection and connection limits of `vod serve`, each falling back to an environment variable.
struct SecurityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A file of API keys, one a line, any of which X-API-Key may carry (env VOD_API_KEY_FILE; or one key in VOD_API_KEY).", valueName: "path"))
    var apiKeyFile: String?

    @Option(help: ArgumentHelp("A file whose first line is the HMAC-SHA256 secret writes are signed with (env VOD_API_SECRET_FILE; or the secret in VOD_API_SECRET).", valueName: "path"))
    var apiSecretFile: String?

    @Option(help: ArgumentHelp("Seconds a connection may send nothing before it is closed (env VOD_IDLE_TIMEOUT; default 30).", valueName: "seconds"))
    var idleTimeout: Int?

    @Option(help: ArgumentHelp("The slowest average a request body may arrive at, such as 16K per second; 0 for no limit (env VOD_MIN_UPLOAD_RATE; default 16K).", valueName: "size"))
    var minUploadRate: String?

    func validate() throws {
        guard try resolvedIdleTimeout() > 0 else { throw ValidationError("--idle-timeout must be positive.") }
        _ = try resolvedMinimumUploadRate()
    }

    /// The keys and secret from the files or the environment; open when none is configured.
    func writeProtection() throws -> WriteProtection {
        var keys = try (apiKeyFile ?? environment("VOD_API_KEY_FILE")).map(WriteProtection.keys(inFile:)) ?? []
        if let key = environment("VOD_API_KEY") { keys.append(key) }
        let secret = try (apiSecretFile ?? environment("VOD_API_SECRET_FILE")).map(WriteProtection.secret(inFile:))
        return WriteProtection(keys: keys, secret: secret ?? environment("VOD_API_SECRET"))
    }

    func resolvedIdleTimeout() throws -> Int {
        guard let text = idleTimeout.map(String.init) ?? environment("VOD_IDLE_TIMEOUT") else { return 30 }
        guard let seconds = Int(text) else { throw ValidationError("VOD_IDLE_TIMEOUT must be an integer, not '\(text)'.") }
        return seconds
    }

    func resolvedMinimumUploadRate() throws -> Int {
        let text = minUploadRate ?? environment("VOD_MIN_UPLOAD_RATE") ?? "16K"
        guard let rate = ByteSize.parse(text), rate >= 0 else {
            throw ValidationError("Invalid upload rate '\(text)'; use bytes per second or a number with K or M, such as 16K.")
        }
        return Int(rate)
    }
}
