import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import Synchronization

/// Keeps the bytes of recently served segments in memory, up to a byte budget, evicting the least recently
/// used first.
///
/// A ready item's segments never change, so a hit is answered from memory: no open, no read and no copy
/// into a fresh buffer, only the write to the socket. Files larger than `maximumFileSize` are not cached (and
/// count as neither hit nor miss).
///
/// Two readers: `StreamFastPath` answers a ready title's segment it holds from memory (`heldBytes`) instead of
/// sending the file with sendfile, and the route (the copy path, for the requests the fast path leaves to it: a
/// connection that asks to close, a request pipelined behind one still with Hummingbird, the first request of a
/// file, whose lookup is not cached yet) reads and fills it. Against reading the file each time it measurably
/// wins: 1.3–1.5× the req/s (docs/bench-b-sendfile.md, which also compares it with sendfile). `StreamRawPath`, which
/// answers most plain GETs below the HTTP/1 codec, sends the file instead: there sendfile measured 1.45× the cache.
final class SegmentCache: Sendable {
    private struct Entry {
        let bytes: ByteBuffer
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var size = 0
        var clock: UInt64 = 0
    }

    /// The most bytes held at once; 0 caches nothing.
    let capacity: Int
    /// The largest file that is cached.
    let maximumFileSize: Int
    private let state = Mutex(State())
    /// Where hits and misses are counted.
    private let metrics: ServiceMetrics

    init(capacity: Int, maximumFileSize: Int = 32 * 1024 * 1024, metrics: ServiceMetrics = ServiceMetrics()) {
        self.capacity = max(0, capacity)
        self.maximumFileSize = min(maximumFileSize, self.capacity)
        self.metrics = metrics
    }

    /// The bytes of the file at `path`, which has `size` bytes, from memory or read once from disk; nil when
    /// the file is too large to cache.
    func bytes(of path: String, size: Int) async throws -> ByteBuffer? {
        guard size > 0, size <= maximumFileSize else { return nil }
        if let bytes = heldBytes(of: path, size: size) { return bytes }
        metrics.segmentCacheMisses.increment()
        let bytes = try await NIOThreadPool.singleton.runIfActive { try Self.read(path, size: size) }
        insert(bytes, for: path)
        return bytes
    }

    /// The bytes of the file at `path`, which has `size` bytes, if they are held in memory; counted as a hit then.
    func heldBytes(of path: String, size: Int) -> ByteBuffer? {
        let bytes = state.withLock { state -> ByteBuffer? in
            guard let entry = state.entries[path], entry.bytes.readableBytes == size else { return nil }
            state.clock += 1
            state.entries[path]!.lastUse = state.clock
            return entry.bytes
        }
        if bytes != nil { metrics.segmentCacheHits.increment() }
        return bytes
    }

    /// Drops every file whose path starts with `prefix`, such as a deleted item's folder.
    func forget(prefix: String) {
        state.withLock { state in
            for (path, entry) in state.entries where path.hasPrefix(prefix) {
                state.entries[path] = nil
                state.size -= entry.bytes.readableBytes
            }
        }
    }

    /// The number of bytes held.
    var size: Int { state.withLock { $0.size } }

    private func insert(_ bytes: ByteBuffer, for path: String) {
        state.withLock { state in
            guard state.entries[path] == nil else { return }
            while state.size + bytes.readableBytes > capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.entries[oldest.key] = nil
                state.size -= oldest.value.bytes.readableBytes
            }
            state.clock += 1
            state.entries[path] = Entry(bytes: bytes, lastUse: state.clock)
            state.size += bytes.readableBytes
        }
    }

    /// Reads exactly `size` bytes of `path`; a file that changed size since it was looked up is an error.
    private static func read(_ path: String, size: Int) throws -> ByteBuffer {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? HTTPError(.notFound) : IOError(errnoCode: errno, reason: "open")
        }
        defer { close(descriptor) }
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        let count = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { pointer in
            var done = 0
            while done < size {
                let result = pread(descriptor, pointer.baseAddress! + done, size - done, off_t(done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { throw IOError(errnoCode: result < 0 ? errno : EIO, reason: "read") }
                done += result
            }
            return done
        }
        guard count == size else { throw IOError(errnoCode: EIO, reason: "short read") }
        return buffer
    }
}
