import ArgumentParser
import Foundation
import VODService

/// Where `vod serve` POSTs status events, and how it signs them.
struct WebhookOptions: ParsableArguments {
    @Option(name: .customLong("webhook-url"), help: ArgumentHelp(
        "A URL every status event is POSTed to; repeat for several (env VOD_WEBHOOK_URLS, separated by spaces or commas).",
        valueName: "url"))
    var urls: [String] = []

    @Option(help: ArgumentHelp(
        "The secret of the Vod-Signature header, an HMAC-SHA256 (env VOD_WEBHOOK_SECRET; unsigned without one).",
        valueName: "secret"))
    var webhookSecret: String?

    @Option(help: ArgumentHelp(
        "Seconds before a failed delivery's first retry; each later one waits twice as long, up to an hour, for 24 hours (env VOD_WEBHOOK_RETRY_DELAY; default 10).",
        valueName: "seconds"))
    var webhookRetryDelay: Double?

    func validate() throws {
        let policy = try webhookPolicy()
        for url in policy.urls {
            guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
                components.host?.isEmpty == false
            else { throw ValidationError("Webhook URL '\(url)' must be an http or https URL.") }
        }
        guard policy.firstRetryDelay > 0 else { throw ValidationError("--webhook-retry-delay must be positive.") }
    }

    /// The receivers, the secret and the retry schedule.
    func webhookPolicy() throws -> WebhookPolicy {
        let listed = environment("VOD_WEBHOOK_URLS")?.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) ?? []
        var delay = webhookRetryDelay
        if delay == nil, let text = environment("VOD_WEBHOOK_RETRY_DELAY") {
            guard let value = Double(text) else { throw ValidationError("VOD_WEBHOOK_RETRY_DELAY must be a number of seconds, not '\(text)'.") }
            delay = value
        }
        return WebhookPolicy(
            urls: urls.isEmpty ? listed : urls, secret: webhookSecret ?? environment("VOD_WEBHOOK_SECRET"), firstRetryDelay: delay ?? 10
        )
    }
}
