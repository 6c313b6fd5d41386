import Hummingbird

extension Response {
    /// A JSON answer for operators (workers, webhook deliveries), which caches must not keep.
    static func operatorJSON(_ json: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
