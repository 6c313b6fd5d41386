import ArgumentParser
import VODServer
import VODService

/// Write protection, playback keys, segment encryption and connection limits of `vod serve`, each falling back to an environment variable.
struct SecurityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A file of API keys, one a line, any of which X-API-Key may carry (env VOD_API_KEY_FILE; or one key in VOD_API_KEY).", valueName: "path"))
    var apiKeyFile: String?

    @Option(help: ArgumentHelp("A file whose first line is the HMAC-SHA256 secret writes are signed with (env VOD_API_SECRET_FILE; or the secret in VOD_API_SECRET).", valueName: "path"))
    var apiSecretFile: String?

    @Option(help: ArgumentHelp("A file whose first line (at least 32 bytes) is the HS256 key playback tokens are signed with, or a P-256 key in PEM for ES256 (a public key alone checks tokens signed elsewhere and issues none) (env VOD_PLAYBACK_KEY_FILE); without it, no token is issued.", valueName: "path"))
    var playbackKeyFile: String?

    @Option(help: ArgumentHelp(
        "none, or aes-128: the segments of titles uploaded from now on are served AES-128-encrypted, each title with its own key, which only its playback token (or an API key) fetches; needs --playback-key-file (env VOD_ENCRYPT; default none).",
        valueName: "method"))
    var encrypt: String?

    @Option(help: ArgumentHelp(
        "An origin (https://app.example.com) whose web pages may upload, change and delete; repeatable (env VOD_CORS_ORIGINS, separated by spaces or commas). Pages of other origins may only read.",
        valueName: "origin"))
    var corsOrigin: [String] = []

    @Flag(help: "Listen on an address other than loopback although no API key is configured, so that anyone who reaches the port can write (env VOD_ALLOW_OPEN_WRITES=1).")
    var allowOpenWrites = false

    @Option(help: ArgumentHelp("Seconds a connection may send nothing before it is closed (env VOD_IDLE_TIMEOUT; default 30).", valueName: "seconds"))
    var idleTimeout: Int?

    @Option(help: ArgumentHelp("The slowest average a request body may arrive at, such as 16K per second; 0 for no limit (env VOD_MIN_UPLOAD_RATE; default 16K).", valueName: "size"))
    var minUploadRate: String?

    func validate() throws {
        guard try resolvedIdleTimeout() > 0 else { throw ValidationError("--idle-timeout must be positive.") }
        _ = try resolvedMinimumUploadRate()
        _ = try resolvedCORSOrigins()
        if try segmentEncryption() != .none, try playbackKey() == nil {
            throw ValidationError("--encrypt aes-128 needs --playback-key-file: an encrypted title's key is handed out only with its playback token.")
        }
    }

    /// How the segments of new titles are served: `--encrypt`, else `VOD_ENCRYPT`, else in the clear.
    func segmentEncryption() throws -> SegmentEncryption {
        let text = encrypt ?? environment("VOD_ENCRYPT") ?? "none"
        guard let encryption = SegmentEncryption(rawValue: text) else {
            throw ValidationError("--encrypt must be none or aes-128, not '\(text)'.")
        }
        return encryption
    }

    /// The keys and secret from the files or the environment; open when none is configured.
    func writeProtection() throws -> WriteProtection {
        var keys = try (apiKeyFile ?? environment("VOD_API_KEY_FILE")).map(WriteProtection.keys(inFile:)) ?? []
        if let key = environment("VOD_API_KEY") { keys.append(key) }
        let secret = try (apiSecretFile ?? environment("VOD_API_SECRET_FILE")).map(WriteProtection.secret(inFile:))
        return WriteProtection(keys: keys, secret: secret ?? environment("VOD_API_SECRET"))
    }

    /// The playback key from `--playback-key-file` or `VOD_PLAYBACK_KEY_FILE`; nil when neither is given.
    func playbackKey() throws -> String? {
        try (playbackKeyFile ?? environment("VOD_PLAYBACK_KEY_FILE")).map(PlaybackTokens.key(inFile:))
    }

    /// The origins of `--cors-origin`, or of `VOD_CORS_ORIGINS`; each must be an http or https origin.
    func resolvedCORSOrigins() throws -> [String] {
        let origins = corsOrigin.isEmpty
            ? (environment("VOD_CORS_ORIGINS") ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) : corsOrigin
        for origin in origins where CrossOriginWrites.normalized(origin) == nil {
            throw ValidationError("--cors-origin must be an http or https origin such as https://app.example.com, not '\(origin)'.")
        }
        return origins
    }

    /// `--allow-open-writes`, or `VOD_ALLOW_OPEN_WRITES` set to 1 or true.
    var resolvedAllowOpenWrites: Bool {
        allowOpenWrites || ["1", "true", "yes"].contains(environment("VOD_ALLOW_OPEN_WRITES")?.lowercased() ?? "")
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
