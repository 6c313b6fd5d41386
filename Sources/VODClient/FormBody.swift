import Foundation
import NIOCore

/// The body of a form upload, streamed: the form's head, the file a megabyte at a time, the form's tail. Each
/// chunk of the file handed on is reported to `progress` (the bytes of the file so far).
struct FormBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let head: [UInt8]
    let file: URL
    let tail: [UInt8]
    let progress: @Sendable (Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: FormBody
        var chunks: FileChunks?
        var sent: Int64 = 0
        var state = State.head

        enum State { case head, file, tail, done }

        mutating func next() async throws -> ByteBuffer? {
            switch state {
            case .head:
                state = .file
                chunks = try FileChunks(body.file)
                return ByteBuffer(bytes: body.head)
            case .file:
                guard let chunk = try chunks?.next() else {
                    state = .tail
                    return try await next()
                }
                sent += Int64(chunk.count)
                body.progress(sent)
                return ByteBuffer(bytes: chunk)
            case .tail:
                state = .done
                return ByteBuffer(bytes: body.tail)
            case .done:
                return nil
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(body: self)
    }
}

/// A file read a megabyte at a time.
final class FileChunks {
    private let handle: FileHandle
    private let path: String

    init(_ file: URL) throws {
        guard let handle = try? FileHandle(forReadingFrom: file) else { throw VODClientError.unreadableFile(file.path) }
        self.handle = handle
        path = file.path
    }

    deinit { try? handle.close() }

    /// The next megabyte or less; nil at the end.
    func next() throws -> [UInt8]? {
        do {
            guard let data = try handle.read(upToCount: 1 << 20), !data.isEmpty else { return nil }
            return Array(data)
        } catch {
            throw VODClientError.unreadableFile(path)
        }
    }

    /// Hands every chunk of `file` to `body`, in order.
    static func read(_ file: URL, _ body: ([UInt8]) throws -> Void) throws {
        let chunks = try FileChunks(file)
        while let chunk = try chunks.next() { try body(chunk) }
    }
}
