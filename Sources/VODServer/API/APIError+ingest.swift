import Hummingbird
import VODService

extension APIError {
    /// 507, which HTTPTypes does not name.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    /// The answer to an upload that `MediaLibrary.ingest` refused: 422 for a file that is not media, 507 or 500
    /// for one that could not be stored.
    init(_ error: IngestError) {
        switch error {
        case .notMedia: self = .unprocessable(error.description)
        case .notStored(let fault):
            self = .http(fault.kind == .full ? Self.insufficientStorage : .internalServerError, message: error.description)
        }
    }
}

extension StorageFault {
    /// The answer to an upload whose bytes could not be stored, staged or ingested.
    var uploadError: APIError { APIError(.notStored(self)) }
}
