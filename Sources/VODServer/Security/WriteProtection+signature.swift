import Crypto
import Foundation
import Hummingbird
import VODCatalog
import VODService

/// Request signing.
///
/// `X-Signature` is the lowercase or uppercase hex HMAC-SHA256, under the secret, of the bytes
///
///     METHOD "\n" TARGET "\n" BODY "\n" TIMESTAMP
///
/// where METHOD is the request method (`POST`), TARGET the request target exactly as sent (path and query,
/// `/api/media?title=My%20clip`), BODY the request body's bytes exactly as sent (nothing for none) and
/// TIMESTAMP the value of `X-Timestamp`: Unix seconds, in decimal, within ±300 s of the server's clock.
/// A signature is accepted once: the same request sent again is refused as a replay.
extension WriteProtection {
    /// Checks the key and the signing headers of a write, and that `signatures` has not seen the signature
    /// used. Returns the signature still to be checked against the body, or nil when signing is off.
    func check(_ request: Request, now: Int64, signatures: any SignatureLedger) async throws -> PendingSignature? {
        if !keyDigests.isEmpty {
            guard let key = request.headers[.apiKey], accepts(key: key) else { throw APIError.unauthorized("Missing or invalid X-API-Key") }
        }
        guard let secret else { return nil }
        guard let stamp = request.headers[.timestamp], let signature = request.headers[.signature] else {
            throw APIError.unauthorized("Signed writes need the X-Timestamp and X-Signature headers")
        }
        guard stamp.utf8.count <= 12, stamp.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let timestamp = Int64(stamp),
            abs(timestamp - now) <= Self.signatureWindow
        else {
            throw APIError.unauthorized("X-Timestamp must be Unix seconds within \(Self.signatureWindow) s of the server's clock")
        }
        guard let expected = Self.bytes(hex: signature) else { throw APIError.unauthorized("Invalid X-Signature") }
        let hex = signature.lowercased()
        guard try await !signatures.isSignatureUsed(hex, now: now) else { throw APIError.replayed }
        let target = request.head.path ?? ""
        return PendingSignature(
            secret: secret, expected: expected, hex: hex, timestamp: timestamp,
            prefix: Array("\(request.method.rawValue)\n\(target)\n".utf8), signatures: signatures
        )
    }

    /// The current Unix time in seconds.
    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// The 32 bytes of a 64-digit hex string, or nil.
    private static func bytes(hex: String) -> [UInt8]? {
        guard hex.utf8.count == 2 * SHA256.byteCount else { return nil }
        return Hex.bytes(hex)
    }
}

/// A signature whose headers are valid, to be checked against the body once it has been read.
struct PendingSignature: Sendable {
    let secret: [UInt8]
    let expected: [UInt8]
    let hex: String
    let timestamp: Int64
    /// `METHOD "\n" TARGET "\n"`.
    let prefix: [UInt8]
    /// Where used signatures are remembered: the catalog, which every API node shares.
    let signatures: any SignatureLedger

    /// An HMAC that has taken in what precedes the body.
    func start() -> HMAC<SHA256> {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: prefix)
        return hmac
    }

    /// Completes `hmac`, which has taken in the whole body, compares it in constant time and records the
    /// signature as used until its timestamp leaves the window; a signature another request (on any node) used
    /// first is a replay.
    func finish(_ hmac: HMAC<SHA256>, now: Int64) async throws {
        var hmac = hmac
        hmac.update(data: Array("\n\(timestamp)".utf8))
        guard hmac.finalize() == expected else { throw APIError.unauthorized("Invalid X-Signature") }
        guard try await signatures.useSignature(hex, expiresAt: timestamp + WriteProtection.signatureWindow, now: now) else {
            throw APIError.replayed
        }
    }

    /// Checks a body read in full.
    func verify(body: ByteBuffer, now: Int64) async throws {
        var hmac = start()
        body.withUnsafeReadableBytes { hmac.update(data: $0) }
        try await finish(hmac, now: now)
    }
}

/// A request body that feeds every chunk to the signature's HMAC as the handler reads it, and fails at its
/// end, before the handler sees the end, unless the signature matches. Used for uploads, which are streamed
/// to disk and only acted on once the whole body has been read.
struct SignedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: RequestBody
    let signature: PendingSignature

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let signature: PendingSignature
        var hmac: HMAC<SHA256>?

        mutating func next() async throws -> ByteBuffer? {
            guard var running = hmac else { return nil }
            if let chunk = try await base.next() {
                chunk.withUnsafeReadableBytes { running.update(data: $0) }
                hmac = running
                return chunk
            }
            hmac = nil
            try await signature.finish(running, now: WriteProtection.now)
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), signature: signature, hmac: signature.start())
    }
}

extension HTTPFields.Element.Name {
    /// `X-API-Key`: a key of `--api-key-file` or `VOD_API_KEY`.
    static var apiKey: Self { Self("X-API-Key")! }
    /// `X-Timestamp`: Unix seconds of a signed write.
    static var timestamp: Self { Self("X-Timestamp")! }
    /// `X-Signature`: hex HMAC-SHA256 of a signed write.
    static var signature: Self { Self("X-Signature")! }
}

extension APIError {
    /// 401 with a message.
    static func unauthorized(_ message: String) -> APIError { .http(.unauthorized, message: message) }
    /// 401: the signature was used before, on this node or another.
    static var replayed: APIError { unauthorized("This signature has already been used") }
}
