/// How the segments of titles uploaded from now on are served (`vod serve --encrypt`).
public enum SegmentEncryption: String, Sendable, CaseIterable {
    /// In the clear.
    case none
    /// Encrypted as HLS `METHOD=AES-128` (AES-128-CBC, PKCS#7 padding) with a key made for each title and kept in
    /// the catalog (`TitleKeyStore`): a segment's URL alone shows nothing.
    case aes128 = "aes-128"

    /// A new random 16-byte key, from the system's cryptographically secure generator.
    public static func newKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
