import Hummingbird

extension APIError {
    /// 404: no upload has this id, or it has expired.
    static var uploadNotFound: APIError { .http(.notFound, message: "Upload not found") }
    /// 412: the request does not speak tus 1.0.0.
    static var tusVersionUnsupported: APIError {
        .http(.preconditionFailed, message: "Send Tus-Resumable: \(TusHeaders.version), the only version supported")
    }
    /// 415: bytes of an upload come as `application/offset+octet-stream`.
    static var notOffsetStream: APIError {
        .http(.unsupportedMediaType, message: "Send the upload's bytes as Content-Type: \(TusHeaders.offsetContentType)")
    }
    /// 409: `Upload-Offset` is not where the upload stands.
    static func offsetMismatch(expected: Int64) -> APIError {
        .conflict("Upload-Offset must be the upload's current offset, \(expected)")
    }
    /// 423: another request is writing this upload.
    static var uploadBusy: APIError { .http(HTTPResponse.Status(code: 423, reasonPhrase: "Locked"), message: "Another request is writing this upload") }
    /// 460: the chunk's bytes do not have the checksum of `Upload-Checksum`; they were discarded.
    static var checksumMismatch: APIError {
        .http(HTTPResponse.Status(code: 460, reasonPhrase: "Checksum Mismatch"), message: "Upload-Checksum does not match the chunk; it was discarded")
    }
    /// 413: the chunk goes past the upload's `Upload-Length`.
    static func beyondLength(_ length: Int64) -> APIError {
        .http(.contentTooLarge, message: "The chunk goes past the upload's Upload-Length of \(length) bytes; it was discarded")
    }
}
