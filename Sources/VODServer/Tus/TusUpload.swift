import Foundation
import VODModel

/// One resumable upload as its info file records it. Its offset is not recorded: it is the size of its data
/// file, so that whatever was written before a crash counts.
struct TusUpload: Codable, Sendable, Equatable {
    /// 32 lowercase hexadecimal digits, which name its files.
    let id: String
    /// The whole file's size, from `Upload-Length`.
    let length: Int64
    /// `Upload-Metadata` as the client sent it, returned by `HEAD`.
    let metadata: String?
    /// The values of `Upload-Metadata` that the media item takes: `filename`, `title`, `description` and
    /// `visibility` (nil in info files written before it, for a public title).
    let fileName: String?
    let title: String?
    let description: String?
    var visibility: MediaVisibility? = nil
    /// After this the upload is refused and swept; every chunk received moves it on.
    var expires: Date
    /// The media item the upload became once complete.
    var mediaID: Int64?

    var isComplete: Bool { mediaID != nil }
}

extension TusUpload {
    /// The pairs of an `Upload-Metadata` header: comma-separated `key base64value` pairs (the value may be
    /// left out); keys unique, without spaces or commas. Values are any bytes (tus asks only for base64), read as
    /// UTF-8 with replacement characters.
    static func metadata(_ header: String) throws -> [String: String] {
        var pairs: [String: String] = [:]
        for pair in header.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true)
            guard let key = parts.first, parts.count <= 2, pairs[String(key)] == nil else {
                throw APIError.badRequest("Upload-Metadata must be comma-separated pairs of a unique key and a base64 value")
            }
            guard parts.count == 2 else {
                pairs[String(key)] = ""
                continue
            }
            guard let data = Data(base64Encoded: String(parts[1])) else {
                throw APIError.badRequest("The Upload-Metadata value of '\(key)' is not base64")
            }
            pairs[String(key)] = String(decoding: data, as: UTF8.self)
        }
        return pairs
    }
}
