import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A resumable upload through the server's tus 1.0.0 endpoint (`/api/uploads`): created with `POST`, then sent
/// a chunk at a time with `PATCH`. A chunk that fails (a dropped connection, a busy server) is resumed from the
/// offset the server reports with `HEAD`, so at most one chunk is sent again. The chunk that completes the upload
/// answers with the `Media-Id` of the new item.
struct TusUploader {
    static let version = "1.0.0"
    static let path = "/api/uploads"

    let client: VODClient
    let file: URL
    let length: Int64

    /// Whether the server announces tus 1.0.0 with the creation extension at `OPTIONS /api/uploads`.
    static func isOffered(by client: VODClient) async throws -> Bool {
        let request = try client.request(.OPTIONS, url: client.url(path), headers: [])
        let response = try await client.httpClient.execute(request, deadline: .now() + .init(client.options.requestTimeout))
        _ = try await response.body.collect(upTo: 1 << 20)
        func names(_ header: String) -> [String] {
            response.headers[header].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return (200..<300).contains(response.status.code) && names("Tus-Version").contains(version)
            && names("Tus-Extension").contains("creation")
    }

    /// Uploads the file and returns the id of the media item it became.
    func upload(metadata: [(String, String)], progress: (Int64) -> Void) async throws -> Int64 {
        let upload = try await create(metadata: metadata)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var offset: Int64 = 0
        var failures = 0
        /// Whether the last request failed, so that where the upload stands must be asked.
        var resuming = false
        while true {
            do {
                let answer = resuming ? try await head(upload) : try await patch(upload, at: offset, chunk: try read(handle, at: offset))
                if !resuming { failures = 0 }
                resuming = false
                offset = answer.offset
                progress(offset)
                if let mediaID = answer.mediaID { return mediaID }
                guard offset < length else { throw VODClientError.invalidResponse("the upload is complete but no Media-Id came") }
            } catch where Self.isWorthRetrying(error) {
                failures += 1
                guard failures <= client.options.maximumRetries else { throw error }
                try await Task.sleep(for: retryDelay(after: failures))
                resuming = true
            }
        }
    }

    /// Where the upload stands, and the media item it became once complete.
    private struct Answer {
        var offset: Int64
        var mediaID: Int64?

        init(_ response: HTTPClientResponse) throws {
            guard let offset = response.headers.first(name: "Upload-Offset").flatMap({ Int64($0) }) else {
                throw VODClientError.invalidResponse("the tus answer has no Upload-Offset")
            }
            self.offset = offset
            mediaID = response.headers.first(name: "Media-Id").flatMap { Int64($0) }
        }
    }

    /// `POST /api/uploads`: the upload's URL.
    private func create(metadata: [(String, String)]) async throws -> String {
        let encoded = metadata.map { "\($0) \(Data($1.utf8).base64EncodedString())" }.joined(separator: ",")
        let (response, _) = try await client.send(.POST, url: client.url(Self.path), headers: [
            ("Tus-Resumable", Self.version), ("Upload-Length", "\(length)"), ("Upload-Metadata", encoded),
        ])
        guard let location = response.headers.first(name: "Location"),
            let url = URL(string: location, relativeTo: URL(string: client.url(Self.path)))
        else { throw VODClientError.invalidResponse("the new upload has no Location") }
        return url.absoluteString
    }

    /// `PATCH`: sends `chunk` at `offset`.
    private func patch(_ upload: String, at offset: Int64, chunk: [UInt8]) async throws -> Answer {
        let (response, _) = try await client.send(
            .PATCH, url: upload, body: chunk, contentType: "application/offset+octet-stream",
            headers: [("Tus-Resumable", Self.version), ("Upload-Offset", "\(offset)")], deadline: .distantFuture
        )
        return try Answer(response)
    }

    /// `HEAD`: where the upload stands.
    private func head(_ upload: String) async throws -> Answer {
        let (response, _) = try await client.send(.HEAD, url: upload, headers: [("Tus-Resumable", Self.version)])
        return try Answer(response)
    }

    /// The next chunk of the file, from `offset`.
    private func read(_ handle: FileHandle, at offset: Int64) throws -> [UInt8] {
        do {
            try handle.seek(toOffset: UInt64(offset))
            let count = Int(min(Int64(client.options.chunkSize), length - offset))
            return Array(try handle.read(upToCount: count) ?? Data())
        } catch {
            throw VODClientError.unreadableFile(file.path)
        }
    }

    /// The wait before retry number `failures`: the retry delay, doubled each time, and at least a second when
    /// signing, so that the retry is signed with a new timestamp.
    private func retryDelay(after failures: Int) -> Duration {
        let delay = client.options.retryDelay * (1 << min(failures - 1, 10))
        return client.signer.secret == nil ? delay : max(delay, .seconds(1))
    }

    /// Whether a failed chunk may go through when sent again: the connection failed, or the server was busy
    /// (409 another offset, 423 another request on the upload, 5xx); other refusals are final.
    private static func isWorthRetrying(_ error: any Error) -> Bool {
        if error is CancellationError { return false }
        guard let error = error as? VODClientError else { return true }
        guard let status = error.status else { return false }
        return status == 409 || status == 423 || status >= 500
    }
}
