import Hummingbird

/// The headers of the tus 1.0.0 resumable upload protocol (https://tus.io/protocols/resumable-upload).
enum TusHeaders {
    /// The only protocol version spoken, in `Tus-Resumable` and `Tus-Version`.
    static let version = "1.0.0"
    /// The extensions announced by `OPTIONS`.
    static let extensions = "creation,creation-with-upload,termination,expiration,checksum"
    /// The checksum algorithms `Upload-Checksum` may name.
    static let checksumAlgorithms = "sha1"
    /// The Content-Type of every body of bytes of the upload.
    static let offsetContentType = "application/offset+octet-stream"
    /// The request headers a browser client sends, for CORS.
    static let requestNames = "Upload-Offset, Upload-Length, Upload-Metadata, Upload-Checksum, Tus-Resumable"
    /// The response headers a browser client reads, for CORS.
    static let responseNames =
        "Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires, Tus-Resumable, Tus-Version, "
        + "Tus-Extension, Tus-Max-Size, Tus-Checksum-Algorithm, Media-Id"
}

extension HTTPFields.Element.Name {
    static var tusResumable: Self { Self("Tus-Resumable")! }
    static var tusVersion: Self { Self("Tus-Version")! }
    static var tusExtension: Self { Self("Tus-Extension")! }
    static var tusMaxSize: Self { Self("Tus-Max-Size")! }
    static var tusChecksumAlgorithm: Self { Self("Tus-Checksum-Algorithm")! }
    static var uploadOffset: Self { Self("Upload-Offset")! }
    static var uploadLength: Self { Self("Upload-Length")! }
    static var uploadMetadata: Self { Self("Upload-Metadata")! }
    static var uploadExpires: Self { Self("Upload-Expires")! }
    static var uploadChecksum: Self { Self("Upload-Checksum")! }
    /// The id of the media item a completed upload became.
    static var mediaID: Self { Self("Media-Id")! }
}

/// Speaks tus on every request of its routes: a request other than `OPTIONS` must carry
/// `Tus-Resumable: 1.0.0` (412 with `Tus-Version` otherwise), and every response, errors included, carries
/// `Tus-Resumable`.
struct TusResumableMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await JSONErrorMiddleware<Context>().handle(request, context: context) { request, context in
            guard request.method == .options || request.headers[.tusResumable] == TusHeaders.version else {
                throw APIError.tusVersionUnsupported
            }
            return try await next(request, context)
        }
        if response.status == .preconditionFailed { response.headers[.tusVersion] = TusHeaders.version }
        response.headers[.tusResumable] = TusHeaders.version
        return response
    }
}
