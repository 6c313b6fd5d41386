import Foundation
import Hummingbird
import VODService

extension TusController {
    /// `PATCH /api/uploads/:id`: appends the body at `Upload-Offset`, which must be where the upload stands
    /// (409 otherwise), one request at a time (423 for a second). The chunk that completes the upload makes it
    /// a media item, named by `Media-Id` and `Location`.
    @Sendable func patch(_ request: Request, context: VODRequestContext) async throws -> Response {
        guard Self.carriesBytes(request) else { throw APIError.notOffsetStream }
        guard let offset = Self.byteCount(request.headers[.uploadOffset]) else {
            throw APIError.badRequest("Upload-Offset must be the offset in bytes the chunk starts at")
        }
        let found = try namedUpload(context)
        guard !found.isComplete else { throw APIError.offsetMismatch(expected: found.length) }
        return try await store.withLock(found.id) {
            // Read again under the lock: a request that held it may have moved the upload on.
            guard let upload = store.upload(found.id) else { throw APIError.uploadNotFound }
            let current = store.offset(of: upload)
            guard offset == current else { throw APIError.offsetMismatch(expected: current) }
            let written = try await append(request, to: upload, at: offset, hasBytes: true, context: context)
            return progress(of: written, request: request, status: .noContent)
        }
    }

    /// Writes the request's body (when `hasBytes`) at `offset`, moves the expiry on, and completes the upload
    /// when it has all its bytes. Returns the upload as it then stands.
    func append(
        _ request: Request, to upload: TusUpload, at offset: Int64, hasBytes: Bool, context: VODRequestContext
    ) async throws -> TusUpload {
        if hasBytes {
            let slot = try uploadSlots.take()
            try await receive(request, into: upload, at: offset)
            withExtendedLifetime(slot) {}
        }
        var upload = upload
        upload.expires = Date().addingTimeInterval(store.expiry)
        try store.save(upload)
        guard store.offset(of: upload) == upload.length else { return upload }
        return try await complete(upload, context: context)
    }

    /// Hands the complete data file to `MediaLibrary.ingest`, which probes it, moves it among the originals and
    /// queues it, and records the media item. A file that is not media is refused as `POST /api/media` refuses
    /// it, and the upload removed.
    private func complete(_ upload: TusUpload, context: VODRequestContext) async throws -> TusUpload {
        let data = store.dataPath(of: upload.id)
        let item: Int64
        do {
            item = try await library.ingest(
                file: data, originalName: upload.fileName ?? "upload", title: upload.title,
                description: upload.description, visibility: upload.visibility ?? .public, mode: .move
            ).id
        } catch {
            let ingestError = error as? IngestError
            if case .notMedia = ingestError { store.remove(upload.id) } else if FileStatus(path: data) == nil { store.remove(upload.id) }
            throw ingestError.map(APIError.init) ?? error
        }
        var completed = upload
        completed.mediaID = item
        try store.save(completed)
        context.logger.info("media uploaded", metadata: ["media.id": "\(item)", "upload.id": "\(upload.id)", "bytes": "\(upload.length)"])
        return completed
    }
}
