import ArgumentParser
import VODServer

/// How much of `vod serve` anyone on the network may hold at once (`ConnectionLimits`), each falling back to an
/// environment variable and then to its default.
struct LimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Event streams open at once, Server-Sent Events and WebSocket together; more get 503 (env VOD_MAX_EVENT_SUBSCRIBERS; default 512).", valueName: "count"))
    var maxEventSubscribers: Int?

    @Option(help: ArgumentHelp("Upload bodies received at once, POST /api/media and tus PATCH together; more get 503 (env VOD_MAX_CONCURRENT_UPLOADS; default 16).", valueName: "count"))
    var maxConcurrentUploads: Int?

    @Option(help: ArgumentHelp("Fields of a multipart upload besides the file; more get 413 (env VOD_MAX_FORM_FIELDS; default 16).", valueName: "count"))
    var maxFormFields: Int?

    @Option(help: ArgumentHelp("Bytes of one multipart field besides the file, such as 64K; longer gets 413 (env VOD_MAX_FORM_FIELD_SIZE; default 64K).", valueName: "size"))
    var maxFormFieldSize: String?

    func validate() throws {
        _ = try connectionLimits()
    }

    /// The limits from the options, the environment and the defaults; each must be at least 1.
    func connectionLimits() throws -> ConnectionLimits {
        let defaults = ConnectionLimits()
        return ConnectionLimits(
            eventSubscribers: try count(maxEventSubscribers, "VOD_MAX_EVENT_SUBSCRIBERS", "--max-event-subscribers") ?? defaults.eventSubscribers,
            uploads: try count(maxConcurrentUploads, "VOD_MAX_CONCURRENT_UPLOADS", "--max-concurrent-uploads") ?? defaults.uploads,
            formFields: try count(maxFormFields, "VOD_MAX_FORM_FIELDS", "--max-form-fields") ?? defaults.formFields,
            formFieldBytes: try fieldSize() ?? defaults.formFieldBytes
        )
    }

    private func count(_ option: Int?, _ variable: String, _ name: String) throws -> Int? {
        guard let text = option.map(String.init) ?? environment(variable) else { return nil }
        guard let value = Int(text), value >= 1 else { throw ValidationError("\(name) (\(variable)) must be a whole number of at least 1, not '\(text)'.") }
        return value
    }

    private func fieldSize() throws -> Int? {
        guard let text = maxFormFieldSize ?? environment("VOD_MAX_FORM_FIELD_SIZE") else { return nil }
        guard let size = ByteSize.parse(text), size >= 1 else {
            throw ValidationError("Invalid form field size '\(text)'; use bytes or a number with K or M, such as 64K.")
        }
        return Int(size)
    }
}
