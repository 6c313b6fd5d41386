import Hummingbird
import VODModel

extension MediaController {
    /// `GET /api/media/:id/key`: the 16-byte AES-128 key of a title served encrypted, the `EXT-X-KEY` URI of its
    /// media playlists. It needs the title's playback token (or an API key) whether the title is public or
    /// private, and is never cached; 404 for a title served in the clear.
    @Sendable func key(_ request: Request, context: VODRequestContext) async throws -> Response {
        let id = try Self.id(context)
        _ = try await grant(request, id: id, visibility: .private)
        // From the catalog, not the stream files, which know the key only of playable titles.
        _ = try await streamFiles.visibility(of: id)
        guard let key = try await library.catalog.encryptionKey(of: id) else {
            throw APIError.http(.notFound, message: "Media \(id) is not served encrypted: it has no key")
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "private, no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: key)))
    }
}
