import Foundation
import Hummingbird
import VODService

/// The tus 1.0.0 resumable uploads of `/api/uploads` (core protocol, creation, creation-with-upload,
/// termination, expiration and sha1 checksums). A completed upload becomes a media item exactly as
/// `POST /api/media` makes one.
struct TusController: Sendable {
    /// The path of the creation endpoint, whose `OPTIONS` the routes answer rather than the CORS middleware.
    static let path = "/api/uploads"

    let library: MediaLibrary
    let store: TusStore
    let maxUploadSize: Int64
    /// Uploads being received, shared with `POST /api/media`.
    let uploadSlots: ConnectionSlots
    let writeProtection: WriteProtection
    let publicURL: String?
    /// Counts the bytes of the chunks it accepts.
    let metrics: ServiceMetrics

    /// `OPTIONS` and `HEAD` are public; creating, writing and terminating go through `WriteProtectionMiddleware`,
    /// a chunk's signature checked as it streams in.
    func addRoutes(to group: RouterGroup<VODRequestContext>) {
        let tus = group.group().add(middleware: TusResumableMiddleware())
        tus.on("", method: .options, use: options)
        tus.head(":id", use: head)
        tus.group()
            .add(middleware: WriteProtectionMiddleware(protection: writeProtection, signatures: library.catalog, body: .streamed))
            .post(use: create)
            .patch(":id", use: patch)
        tus.group()
            .add(middleware: WriteProtectionMiddleware(protection: writeProtection, signatures: library.catalog, body: .collected(limit: MediaController.maximumSignedBodySize)))
            .delete(":id", use: delete)
    }

    /// `OPTIONS /api/uploads`: what this server speaks.
    @Sendable func options(_ request: Request, context: VODRequestContext) async throws -> Response {
        Response(status: .noContent, headers: [
            .tusVersion: TusHeaders.version, .tusExtension: TusHeaders.extensions,
            .tusMaxSize: "\(maxUploadSize)", .tusChecksumAlgorithm: TusHeaders.checksumAlgorithms,
        ])
    }

    /// `POST /api/uploads`: creates an upload of `Upload-Length` bytes, and writes the body's bytes when it
    /// has some (`Content-Type: application/offset+octet-stream`). When anything fails, no upload is left.
    @Sendable func create(_ request: Request, context: VODRequestContext) async throws -> Response {
        guard let length = Self.byteCount(request.headers[.uploadLength]) else {
            throw APIError.badRequest("Upload-Length must be the upload's size in bytes")
        }
        guard length <= maxUploadSize else { throw APIError.uploadTooLarge(limit: maxUploadSize) }
        let hasBytes = Self.carriesBytes(request)
        if !hasBytes {
            // Read even an empty body, so that a signature covering it is checked before anything is created.
            for try await chunk in request.body where chunk.readableBytes > 0 {
                throw APIError.notOffsetStream
            }
        }
        let created = try store.create(length: length, metadata: request.headers[.uploadMetadata])
        var response: Response
        do {
            response = try await store.withLock(created.id) {
                let upload = try await append(request, to: created, at: 0, hasBytes: hasBytes, context: context)
                return progress(of: upload, request: request, status: .created)
            }
        } catch {
            store.remove(created.id)
            throw error
        }
        response.headers[.location] = "\(request.baseURL(publicURL: publicURL))\(Self.path)/\(created.id)"
        return response
    }

    /// `HEAD /api/uploads/:id`: how far the upload has come, and the media item it became once complete.
    @Sendable func head(_ request: Request, context: VODRequestContext) async throws -> Response {
        let upload = try namedUpload(context)
        var response = progress(of: upload, request: request, status: .ok)
        response.headers[.uploadLength] = "\(upload.length)"
        if let metadata = upload.metadata { response.headers[.uploadMetadata] = metadata }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `DELETE /api/uploads/:id`: removes the upload (not the media item a completed one became).
    @Sendable func delete(_ request: Request, context: VODRequestContext) async throws -> Response {
        let upload = try namedUpload(context)
        if upload.isComplete {
            store.remove(upload.id)
        } else {
            try await store.withLock(upload.id) { store.remove(upload.id) }
        }
        context.logger.info("upload terminated", metadata: ["upload.id": "\(upload.id)"])
        return Response(status: .noContent)
    }

    /// The upload named by the `:id` parameter; 404 when there is none or it has expired.
    func namedUpload(_ context: VODRequestContext) throws -> TusUpload {
        guard let id = context.parameters.get("id"), let upload = store.upload(id) else { throw APIError.uploadNotFound }
        return upload
    }

    /// A response that tells where `upload` stands: its offset, its expiry, and once complete its media item.
    func progress(of upload: TusUpload, request: Request, status: HTTPResponse.Status) -> Response {
        var response = Response(status: status, headers: [
            .uploadOffset: "\(store.offset(of: upload))", .uploadExpires: HTTPDate.string(from: upload.expires),
        ])
        if let mediaID = upload.mediaID {
            response.headers[.mediaID] = "\(mediaID)"
            response.headers[.location] = "\(request.baseURL(publicURL: publicURL))/api/media/\(mediaID)"
        }
        return response
    }

    /// A header value of decimal digits only, such as `Upload-Length`, as a number of bytes.
    static func byteCount(_ value: String?) -> Int64? {
        guard let value, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(value)
    }

    /// Whether the request's body is bytes of the upload.
    static func carriesBytes(_ request: Request) -> Bool {
        request.headers[.contentType]?.lowercased().hasPrefix(TusHeaders.offsetContentType) == true
    }
}
