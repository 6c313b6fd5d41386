import HTTPTypes
import NIOCore

/// What a GET or HEAD of a stream file gets, but for the body itself (`StreamFile.answer(to:)`), decided once for
/// the route and for `StreamFastPath`. The headers are the file's own; the CORS headers, `Date` and `Server`
/// are added by whoever sends it.
enum StreamAnswer {
    /// 304, with these headers.
    case notModified(HTTPFields)
    /// 416: the range lies outside the file.
    case unsatisfiable
    /// 200 with the gzip form of a playlist, with these headers.
    case gzipped(HTTPFields, ByteBuffer)
    /// 200 or 206 with these headers and, for a GET, these bytes of the file (nil: none, the file is empty).
    case bytes(HTTPResponse.Status, HTTPFields, ClosedRange<Int>?)
}
