import Foundation
import HTTPTypes
import Hummingbird
import VODService

extension StreamFile {
    /// Where a file becomes a response through Hummingbird: answers GET and HEAD as `answer(to:)` decides, the
    /// bytes of segments from `segments`, the memory cache, when they fit in it, and streamed from disk
    /// otherwise. `StreamFastPath` sends most segments itself, without copying them (`StreamFastPath+file`);
    /// this is the copy path for the requests it hands on.
    func response(to request: Request, context: some RequestContext, segments: SegmentCache) async throws -> Response {
        switch answer(to: request.headers) {
        case .notModified(let headers):
            return Response(status: .notModified, headers: headers)
        case .unsatisfiable:
            throw APIError.rangeNotSatisfiable(size: size)
        case .gzipped(let headers, let gzipped):
            return Response(status: .ok, headers: headers, body: request.method == .head ? .init() : .init(byteBuffer: gzipped))
        case .bytes(let status, let headers, let range):
            guard request.method != .head, let range else { return Response(status: status, headers: headers, body: .init()) }
            return Response(status: status, headers: headers, body: try await body(range, context: context, segments: segments))
        }
    }

    /// What a GET or HEAD with `fields` gets, but for the body itself: validators, conditional requests (304),
    /// byte ranges (206, 416), long-lived caching and, for playlists, gzip when the client accepts it.
    func answer(to fields: HTTPFields) -> StreamAnswer {
        let gzipped = gzipped(for: fields)
        let eTag = gzipped == nil ? self.eTag : gzipETag
        var headers = validators(eTag: eTag)
        if isNotModified(fields, eTag: eTag) { return .notModified(headers) }
        if let gzipped {
            headers[.contentEncoding] = "gzip"
            headers[.contentLength] = "\(gzipped.readableBytes)"
            return .gzipped(headers, gzipped)
        }
        var range = size > 0 ? 0...(size - 1) : nil
        var status = HTTPResponse.Status.ok
        if let header = fields[.range], rangeApplies(fields) {
            switch RangeRequest(header: header, size: size) {
            case .whole: break
            case .partial(let partial):
                range = partial
                status = .partialContent
                headers[.contentRange] = "bytes \(partial.lowerBound)-\(partial.upperBound)/\(size)"
            case .unsatisfiable: return .unsatisfiable
            }
        }
        headers[.contentLength] = "\(range?.count ?? 0)"
        return .bytes(status, headers, range)
    }

    /// The whole answer to `request` without Hummingbird, for `StreamFastPath`: a GET or HEAD of a file held in
    /// memory that asks for no range and sets no condition gets exactly what `response` and the CORS middleware
    /// would give it, but for `Date` and `Server`; anything else gets nil.
    func immediateResponse(to request: HTTPRequest) -> (head: HTTPResponse, body: ByteBuffer?)? {
        guard case .memory(let bytes, _) = content, let immediateHeaders, request.method == .get || request.method == .head,
              Self.isPlain(request.headerFields) else { return nil }
        let gzipped = gzipped(for: request.headerFields)
        let headers = gzipped == nil ? immediateHeaders.plain : immediateHeaders.gzipped ?? immediateHeaders.plain
        return (HTTPResponse(status: .ok, headerFields: headers), request.method == .head ? nil : gzipped ?? bytes)
    }

    /// The headers of a plain GET of the whole file, built once per file: for a file held in memory the plain and
    /// the gzip form's, for a file on disk its own, each with its validators, length and the CORS headers.
    static func immediateHeaders(of file: StreamFile) -> ImmediateHeaders {
        func headers(eTag: String, length: Int, encoding: String?) -> HTTPFields {
            var headers = file.validators(eTag: eTag)
            if let encoding { headers[.contentEncoding] = encoding }
            headers[.contentLength] = "\(length)"
            CORSHeaderValues.add(to: &headers)
            return headers
        }
        guard case .memory(let bytes, let gzipped) = file.content else {
            return ImmediateHeaders(plain: headers(eTag: file.eTag, length: file.size, encoding: nil), gzipped: nil)
        }
        return ImmediateHeaders(plain: headers(eTag: file.eTag, length: bytes.readableBytes, encoding: nil),
                                gzipped: gzipped.map { headers(eTag: file.gzipETag, length: $0.readableBytes, encoding: "gzip") })
    }

    /// Whether `fields` ask for the whole file with no range and no condition.
    static func isPlain(_ fields: HTTPFields) -> Bool {
        conditionalFields.allSatisfy { fields[$0] == nil }
    }

    /// The ETag of the gzip form.
    private var gzipETag: String { "\(eTag.dropLast())-gzip\"" }

    /// The fields that make a request more than a plain GET of the whole file.
    private static let conditionalFields: [HTTPField.Name] = [.range, .ifNoneMatch, .ifModifiedSince, .ifRange]

    /// The headers of every answer: type, validators, caching, ranges, and `Vary` where a gzip form exists.
    private func validators(eTag: String) -> HTTPFields {
        var headers: HTTPFields = [
            .contentType: contentType,
            .eTag: eTag,
            .lastModified: lastModified,
            .cacheControl: cacheControl,
            .acceptRanges: "bytes",
        ]
        if case .memory(_, .some) = content { headers[.vary] = "Accept-Encoding" }
        return headers
    }

    /// The gzip form, when there is one and the request accepts it without asking for a range.
    private func gzipped(for headers: HTTPFields) -> ByteBuffer? {
        guard case .memory(_, let gzipped?) = content, headers[.range] == nil, Self.acceptsGzip(headers) else { return nil }
        return gzipped
    }

    private func body(_ range: ClosedRange<Int>, context: some RequestContext, segments: SegmentCache) async throws -> ResponseBody {
        switch content {
        case .memory(let buffer, _):
            return .init(byteBuffer: buffer.getSlice(at: range.lowerBound, length: range.count)!)
        case .disk(let path):
            if !isLive, let bytes = try await segments.bytes(of: path, size: size) {
                return .init(byteBuffer: bytes.getSlice(at: range.lowerBound, length: range.count)!)
            }
            // A file changed since it was looked up (a ready title's never do, a live one's are looked up afresh):
            // not sent, rather than cut short or waited on for bytes it no longer has.
            guard let status = FileStatus(path: path), status.isRegularFile, Int(status.size) == size else {
                throw APIError.segmentNotFound((path as NSString).lastPathComponent)
            }
            return try await FileIO().loadFile(path: path, range: range, context: context)
        }
    }

    /// A ready title's files never change, but for its master playlist and DASH manifest (`listsRenditions`), which
    /// gain a caption's rendition when one is added: those are revalidated each time (the ETag makes that a 304),
    /// where a year's `immutable` kept a browser or CDN from ever seeing the caption. A live title's playlists change
    /// at each publication: a second's caching lets a CDN collapse players' refreshes while the ETag (a hash of the
    /// bytes) stays true. Its segments are revalidated each time, since another attempt of the job may write them
    /// again.
    private var cacheControl: String {
        guard isLive else { return listsRenditions ? "public, no-cache" : "public, max-age=31536000, immutable" }
        if case .memory = content { return "public, max-age=1" }
        return "no-cache"
    }

    /// `If-None-Match` wins over `If-Modified-Since` (RFC 9110 §13.2.2).
    private func isNotModified(_ fields: HTTPFields, eTag: String) -> Bool {
        let matches = fields[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }
        if !matches.isEmpty {
            return matches.contains { tag in
                let tag = tag.trimmingCharacters(in: .whitespaces)
                return tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == eTag
            }
        }
        guard let since = fields[.ifModifiedSince].flatMap(HTTPDate.date(from:)),
            let modified = HTTPDate.date(from: lastModified)
        else { return false }
        return modified <= since
    }

    /// A range applies unless `If-Range` names another version of the file.
    private func rangeApplies(_ fields: HTTPFields) -> Bool {
        guard let ifRange = fields[.ifRange] else { return true }
        return ifRange == eTag || ifRange == lastModified
    }

    private static func acceptsGzip(_ headers: HTTPFields) -> Bool {
        acceptsGzip(headers[values: .acceptEncoding])
    }

    /// Whether `Accept-Encoding` fields with these values accept gzip.
    static func acceptsGzip(_ values: [String]) -> Bool {
        values.flatMap { $0.split(separator: ",") }.contains { coding in
            let parts = coding.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return parts.first == "gzip" && !parts.dropFirst().contains { $0 == "q=0" || $0 == "q=0.0" || $0 == "q=0.00" || $0 == "q=0.000" }
        }
    }
}
