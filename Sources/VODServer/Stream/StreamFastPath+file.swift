import Foundation
import HTTPTypes
import NIOCore
import VODService

extension StreamFastPath {
    /// The body of an answer sent on the event loop: bytes held in memory, or a region of an open file that the
    /// kernel sends to the socket itself (`sendfile`), never copied through user space, written through
    /// `encoder`, the context of the HTTP/1 encoder.
    enum Body {
        case bytes(ByteBuffer)
        case file(FileRegion, encoder: ChannelHandlerContext)

        /// The number of body bytes sent.
        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.readableBytes
            case .file(let region, _): region.readableBytes
            }
        }

        /// Gives back what the body holds: the file's descriptor.
        func close() {
            if case .file(let region, _) = self { try? region.fileHandle.close() }
        }
    }

    /// The answer to a GET or HEAD of `file`, a file on disk, read from the file as it is opened now: the
    /// headers come from the status of the open descriptor, so that a rename over the path while it is sent
    /// changes nothing (the descriptor keeps the old inode, its bytes and its length), and the body is a region
    /// of it. Nil sends the request to the route: the file cannot be opened or is no longer a regular file, or
    /// the range is unsatisfiable (416, whose JSON body the route writes). The body is to be written through
    /// `encoder`.
    static func fileAnswer(
        to request: HTTPRequest, file: StreamFile, path: String, encoder: ChannelHandlerContext
    ) -> (status: HTTPResponse.Status, headers: HTTPFields, body: Body?)? {
        guard let (handle, status) = openRegularFile(path) else { return nil }
        var opened = file
        if StreamFile.eTag(size: Int(status.size), modified: status.modified) != file.eTag {
            opened = StreamFile(path: path, size: Int(status.size), contentType: file.contentType, modified: status.modified)
            opened.isLive = file.isLive
        }
        var sent = false
        let answer = answer(to: request, of: opened) { range in
            sent = true
            return .file(FileRegion(fileHandle: handle, readerIndex: range.lowerBound, endIndex: range.upperBound + 1), encoder: encoder)
        }
        if !sent { try? handle.close() }
        return answer
    }

    /// The regular file at `path`, opened for reading without following a symbolic link, and the status of the
    /// open descriptor; nil when it cannot be opened or is not a regular file.
    static func openRegularFile(_ path: String) -> (NIOFileHandle, FileStatus)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
        guard let status = FileStatus(descriptor: descriptor), status.isRegularFile else {
            try? handle.close()
            return nil
        }
        return (handle, status)
    }

    /// The answer to a GET or HEAD of `file`, a ready title's file whose bytes the segment cache holds: the same
    /// as `fileAnswer`'s, its body those bytes, without opening the file (a ready title's files never change).
    static func heldAnswer(to request: HTTPRequest, file: StreamFile, bytes: ByteBuffer)
        -> (status: HTTPResponse.Status, headers: HTTPFields, body: Body?)? {
        answer(to: request, of: file) { range in .bytes(bytes.getSlice(at: range.lowerBound, length: range.count)!) }
    }

    /// The status, headers and body (made by `body` from the range to send, for a GET) of the answer to
    /// `request` for `file`; nil sends the request to the route (416, whose JSON body the route writes).
    private static func answer(to request: HTTPRequest, of file: StreamFile, body: (ClosedRange<Int>) -> Body)
        -> (status: HTTPResponse.Status, headers: HTTPFields, body: Body?)? {
        switch answer(to: request.headerFields, of: file) {
        case .bytes(let code, let headers, let range?) where request.method == .get: (code, headers, body(range))
        case .bytes(let code, let headers, _): (code, headers, nil)
        case .notModified(let headers): (.notModified, headers, nil)
        case .unsatisfiable, .gzipped: nil
        }
    }

    /// `file.answer(to:)` with the CORS headers, those of a plain GET built once per file.
    private static func answer(to fields: HTTPFields, of file: StreamFile) -> StreamAnswer {
        if StreamFile.isPlain(fields), let plain = file.immediateHeaders?.plain {
            return .bytes(.ok, plain, file.size > 0 ? 0...(file.size - 1) : nil)
        }
        switch file.answer(to: fields) {
        case .bytes(let code, var headers, let range):
            CORSHeaderValues.add(to: &headers)
            return .bytes(code, headers, range)
        case .notModified(var headers):
            CORSHeaderValues.add(to: &headers)
            return .notModified(headers)
        case let other:
            return other
        }
    }
}
