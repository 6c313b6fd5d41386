import Foundation
import Hummingbird
import VODCatalog
import VODService

extension MediaController {
    /// `POST /api/media`: receives a multipart form (`file`, `title`, `description`, `visibility`) or a raw
    /// `video/*` body (`title`, `description` and `visibility` in the query) into a staging file, then hands it to `MediaLibrary.ingest`,
    /// which probes it and queues the job. Whatever fails, the staging file is removed.
    @Sendable func upload(_ request: Request, context: VODRequestContext) async throws -> Response {
        let contentType = request.headers[.contentType]
        let boundary = contentType.flatMap(MultipartParser.boundary(fromContentType:))
        let isRaw = contentType?.lowercased().hasPrefix("video/") == true
        guard boundary != nil || isRaw else { throw APIError.unsupportedContentType(contentType) }
        let declaredLength = request.headers[.contentLength].flatMap { Int64($0) }
        if let declaredLength, declaredLength > maxUploadSize { throw APIError.uploadTooLarge(limit: maxUploadSize) }

        let slot = try uploadSlots.take()
        defer { withExtendedLifetime(slot) {} }
        let staging = library.uploadStagingPath()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let receiver = UploadReceiver(stagingPath: staging, limit: maxUploadSize, formLimits: formLimits)
        let query = request.uri.queryParameters
        var title = query["title"].map(String.init)
        var description = query["description"].map(String.init)
        var visibility = query["visibility"].map(String.init)
        let fileName: String
        do {
            if let boundary {
                let form = try await receiver.receiveMultipart(request.body, boundary: boundary)
                metrics.uploadedBytes.increment(by: form.fileSize)
                guard let name = form.fileName else { throw APIError.noFile }
                fileName = name
                title = form.fields["title"] ?? title
                description = form.fields["description"] ?? description
                visibility = form.fields["visibility"] ?? visibility
            } else {
                let size = try await receiver.receiveRaw(request.body, expectedLength: declaredLength)
                metrics.uploadedBytes.increment(by: size)
                fileName = query["filename"].map(String.init) ?? "upload"
            }
        } catch is IncompleteUpload {
            throw APIError.badRequest("The upload ended before it was complete")
        } catch let error as MultipartParser.Malformed {
            throw APIError.badRequest("Malformed multipart body: \(error.reason)")
        } catch {
            throw StorageFault(error)?.uploadError ?? error
        }
        let item: MediaItem
        do {
            item = try await library.ingest(
                file: staging, originalName: fileName, title: title, description: description,
                visibility: try MediaVisibility(parameter: visibility) ?? .public, mode: .move
            )
        } catch let error as IngestError {
            throw APIError(error)
        }
        context.logger.info("media uploaded", metadata: ["media.id": "\(item.id)", "bytes": "\(item.sourceSize)"])
        var response = try representation(of: item, request: request).response(from: request, context: context)
        response.status = .created
        response.headers[.location] = "\(baseURL(for: request))/api/media/\(item.id)"
        return response
    }
}
