import Foundation
import Hummingbird
import _NIOFileSystem
import VODService

extension TusController {
    /// Writes the request's body into the upload's data file from `offset`, chunk by chunk.
    ///
    /// The bytes of a chunk that is refused are discarded (the file is cut back to `offset`): one that goes past
    /// `Upload-Length` (413), whose `Upload-Checksum` does not match (460) or whose signature fails (401). A chunk
    /// cut short (the client went away) keeps the bytes that arrived, so the client resumes from there, unless
    /// a checksum or a signature was to vouch for them.
    func receive(_ request: Request, into upload: TusUpload, at offset: Int64) async throws {
        let checksum = try request.headers[.uploadChecksum].map(TusChecksum.init(header:))
        let declared = request.headers[.contentLength].flatMap { Int64($0) }
        if let declared, declared > upload.length - offset { throw APIError.beyondLength(upload.length) }
        let path = store.dataPath(of: upload.id)
        let verified = checksum != nil || writeProtection.secret != nil
        do {
            let (end, digest) = try await FileSystem.shared.withFileHandle(
                forWritingAt: FilePath(path), options: .modifyFile(createIfNecessary: false)
            ) { handle in
                var end = offset
                var digest = checksum
                var body = request.body.makeAsyncIterator()
                while let chunk = try await Self.next(of: &body) {
                    guard Int64(chunk.readableBytes) <= upload.length - end else { throw APIError.beyondLength(upload.length) }
                    try await handle.write(contentsOf: chunk, toAbsoluteOffset: end)
                    chunk.withUnsafeReadableBytes { digest?.update($0) }
                    end += Int64(chunk.readableBytes)
                }
                return (end, digest)
            }
            if let declared, end - offset != declared { throw IncompleteUpload() }
            if let digest, !digest.matches { throw APIError.checksumMismatch }
            metrics.uploadedBytes.increment(by: end - offset)
        } catch {
            if verified || error as? APIError == .beyondLength(upload.length) { truncate(path, off_t(offset)) }
            if error is IncompleteUpload { throw APIError.badRequest("The chunk ended before it was complete") }
            throw StorageFault(error)?.uploadError ?? error
        }
    }

    /// The body's next chunk. A body that breaks off (the client went away) is an `IncompleteUpload`; the
    /// refusals of the middleware that wrap it (signature, rate) stay what they are.
    private static func next(of body: inout RequestBody.AsyncIterator) async throws -> ByteBuffer? {
        do {
            return try await body.next()
        } catch let error as APIError {
            throw error
        } catch {
            throw IncompleteUpload()
        }
    }
}
