import Crypto
import Foundation

/// The `Vod-Signature` header of a webhook delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
/// `"<t>.<body>"` with the webhook secret, the way Stripe and Mux sign theirs.
///
/// A receiver splits the header on commas, recomputes the HMAC of `t`, a full stop and the raw body with the
/// shared secret, compares it with `v1` in constant time, and refuses a `t` more than five minutes from its
/// clock (a replay).
public enum WebhookSignature {
    /// The header's name.
    public static let header = "Vod-Signature"
    /// How far `t` may be from the receiver's clock.
    public static let tolerance: Int64 = 300

    /// The header value for `body` sent at `time`.
    public static func sign(_ body: [UInt8], secret: String, time: Int64) -> String {
        "t=\(time),v1=\(Hex.string(mac(body, secret: secret, time: time)))"
    }

    /// Whether `header` signs `body` with `secret`, at a time within `tolerance` of `now`.
    public static func verify(_ header: String, body: [UInt8], secret: String, now: Int64) -> Bool {
        var time: Int64?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { time = Int64(pair[1]) }
            if pair[0] == "v1" { signatures.append(pair[1].lowercased()) }
        }
        guard let time, abs(now - time) <= tolerance else { return false }
        let signed = Array("\(time).".utf8) + body
        let key = SymmetricKey(data: Array(secret.utf8))
        return signatures.contains { signature in
            guard let bytes = Hex.bytes(signature) else { return false }
            return HMAC<SHA256>.isValidAuthenticationCode(bytes, authenticating: signed, using: key)
        }
    }

    private static func mac(_ body: [UInt8], secret: String, time: Int64) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Array(secret.utf8)))
        hmac.update(data: Array("\(time).".utf8))
        hmac.update(data: body)
        return Array(hmac.finalize())
    }
}
