import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import VODModel

extension VODClient {
    /// Uploads a video or audio file and returns the new item, `pending` in the transcode queue.
    ///
    /// The upload resumes through the server's tus endpoint when it has one: a dropped connection costs at most one
    /// chunk (`Options.chunkSize`). A server without it gets one multipart `POST /api/media`. A file the server
    /// cannot use is refused with its reason (`VODClientError.refused`, status 422).
    ///
    /// - Parameters:
    ///   - title: the item's title; the server makes one from the file's name when nil.
    ///   - progress: called as the file goes up, ending with the file's size.
    public func upload(
        file: URL, title: String? = nil, description: String? = nil,
        progress: (@Sendable (UploadProgress) -> Void)? = nil
    ) async throws -> Media {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else { throw VODClientError.unreadableFile(file.path) }
        let report: @Sendable (Int64) -> Void = { sent in progress?(UploadProgress(bytesSent: sent, totalBytes: size)) }
        guard try await TusUploader.isOffered(by: self) else {
            return try await postForm(file: file, size: size, title: title, description: description, progress: report)
        }
        let metadata = [("filename", file.lastPathComponent), ("title", title), ("description", description)]
            .compactMap { key, value in value.map { (key, $0) } }
        let id = try await TusUploader(client: self, file: file, length: size).upload(metadata: metadata, progress: report)
        return try await get(id: id)
    }

    /// `POST /api/media` with the file in a multipart form, streamed from disk (read once more first to sign it).
    private func postForm(
        file: URL, size: Int64, title: String?, description: String?, progress: @escaping @Sendable (Int64) -> Void
    ) async throws -> Media {
        let fields = [("title", title), ("description", description)].compactMap { name, value in value.map { (name, $0) } }
        let form = MultipartForm(fields: fields, fileField: "file", fileName: file.lastPathComponent)
        let url = url("/api/media")
        let signature = try signer.headers(method: "POST", target: try Self.target(of: url)) { hmac in
            hmac.update(data: form.head)
            try FileChunks.read(file) { hmac.update(data: $0) }
            hmac.update(data: form.tail)
        }
        var request = try request(.POST, url: url, headers: signature + [("Content-Type", form.contentType)])
        let body = FormBody(head: form.head, file: file, tail: form.tail, progress: progress)
        request.body = .stream(body, length: .known(Int64(form.head.count + form.tail.count) + size))
        let response = try await httpClient.execute(request, deadline: .distantFuture)
        let bytes = try await response.body.collect(upTo: 64 << 20)
        try Self.check(response.status, body: bytes)
        return try decode(Media.self, from: bytes)
    }
}
