/// The signatures (the nonces) of signed writes already accepted, kept for as long as their timestamps are, so
/// that a signed request is taken once by whichever API node sharing the catalog gets it first, even across
/// restarts.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol SignatureLedger: Sendable {
    /// Records `signature` as used until `expiresAt` (Unix seconds), and forgets those that expired before `now`.
    /// Returns false, recording nothing, when it was already used: the request is a replay.
    func useSignature(_ signature: String, expiresAt: Int64, now: Int64) async throws -> Bool
    /// Whether `signature` was used and has not expired by `now`.
    func isSignatureUsed(_ signature: String, now: Int64) async throws -> Bool
}
