import Hummingbird
import VODCatalog

extension Router<VODRequestContext> {
    /// `GET /health`: 200 `OK` while the catalog answers, else the JSON 503 `Database unavailable`.
    func addHealthCheck(catalog: any MediaStore) {
        get("health") { _, _ -> Response in
            do {
                try await catalog.ping()
            } catch {
                throw APIError.databaseUnavailable
            }
            return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "OK")))
        }
    }
}
