/// The AES-128 keys of titles whose segments are served encrypted (`vod serve --encrypt aes-128`): one key per
/// title, made when it is uploaded and kept for as long as the title, handed to players only with the title's
/// playback token. A title without a key is served in the clear.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol TitleKeyStore: Sendable {
    /// Keeps `key` (16 bytes) as title `mediaID`'s key, in place of any earlier one.
    func setEncryptionKey(_ key: [UInt8], for mediaID: Int64) async throws
    /// Title `mediaID`'s key; nil when its segments are served in the clear.
    func encryptionKey(of mediaID: Int64) async throws -> [UInt8]?
}
