import Foundation
import Hummingbird

/// One file of an item's renditions, with what HTTP needs to validate and slice it.
///
/// Playlists are held in memory, with their gzip form; segments and stills stay on disk and are streamed;
/// thumbnails rendered on demand are held in memory as they are.
/// The files of a title published while it is still processing are live: served again only while unchanged on
/// disk (`StreamFiles`), playlists with a second's `max-age` and segments with `no-cache`.
struct StreamFile: Sendable {
    enum Content: Sendable {
        case memory(ByteBuffer, gzipped: ByteBuffer?)
        case disk(path: String)
    }

    let content: Content
    let size: Int
    let contentType: String
    let eTag: String
    let lastModified: String
    /// Whether it belongs to a title still being transcoded.
    var isLive = false {
        didSet { setImmediateHeaders() }
    }
    /// Whether it is a title's master playlist or DASH manifest, which list its renditions and so change when one
    /// is added to a ready title (a caption), where the title's other files never change.
    var listsRenditions = false {
        didSet { setImmediateHeaders() }
    }
    /// The headers of a plain GET of the whole file, with the CORS headers (`immediateResponse`, `StreamFastPath`).
    private(set) var immediateHeaders: ImmediateHeaders?
    /// The same as the HTTP/1 encoder writes them, before `Date` (`StreamRawPath`).
    private(set) var rawHeads: RawHeads?

    /// The headers of a plain GET of the whole file, built once: its own and, for a playlist, its gzip form's.
    struct ImmediateHeaders: Sendable {
        let plain: HTTPFields
        let gzipped: HTTPFields?
    }

    /// The content types of the files the engine writes; anything else is not served.
    static let contentTypes: [String: String] = [
        "m3u8": "application/vnd.apple.mpegurl",
        "mpd": "application/dash+xml",
        "ts": "video/mp2t",
        "m4s": "video/iso.segment",
        "mp4": "video/mp4",
        "aac": "audio/aac",
        "vtt": "text/vtt",
        "jpg": "image/jpeg",
        "json": "application/json",
    ]

    /// A playlist held in memory, served gzip-compressed to clients that accept it.
    init(playlist: [UInt8], contentType: String, modified: Date) throws {
        try self.init(bytes: playlist, contentType: contentType, modified: modified, gzip: true)
    }

    /// Bytes held in memory, with an ETag that hashes them; with `gzip`, also their gzip form, served to
    /// clients that accept it (not worth it for JPEG).
    init(bytes: [UInt8], contentType: String, modified: Date, gzip: Bool) throws {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        content = .memory(ByteBuffer(bytes: bytes), gzipped: gzip ? ByteBuffer(bytes: try Gzip.compress(bytes)) : nil)
        size = bytes.count
        self.contentType = contentType
        eTag = "\"\(String(hash, radix: 16))\""
        lastModified = HTTPDate.string(from: modified)
        setImmediateHeaders()
    }

    /// A file streamed from disk.
    init(path: String, size: Int, contentType: String, modified: Date) {
        content = .disk(path: path)
        self.size = size
        self.contentType = contentType
        eTag = Self.eTag(size: size, modified: modified)
        lastModified = HTTPDate.string(from: modified)
        setImmediateHeaders()
    }

    private mutating func setImmediateHeaders() {
        let headers = Self.immediateHeaders(of: self)
        immediateHeaders = headers
        rawHeads = RawHeads(headers)
    }

    /// The ETag of a file on disk: its size and modification time (to the nanosecond), in hex.
    static func eTag(size: Int, modified: Date) -> String {
        let nanoseconds = Int64(modified.timeIntervalSince1970 * 1_000_000_000)
        return "\"\(String(size, radix: 16))-\(String(nanoseconds, radix: 16))\""
    }
}
