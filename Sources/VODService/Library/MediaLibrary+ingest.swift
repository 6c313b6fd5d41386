import Foundation
import NIOPosix
import VODCatalog
import VODEngine

extension MediaLibrary {
    /// How a file enters the media folder.
    public enum IngestMode: Sendable {
        /// The file is a staged upload: it is moved into place.
        case move
        /// The file belongs to the user (`vod import`): it is hard-linked when possible, otherwise copied.
        case copy
    }

    /// Where an upload or an imported file becomes a job: probes `file`, stores it in the media folder and
    /// adds a `pending` row that a worker will claim.
    ///
    /// Throws `IngestError.notMedia` when probing shows the file is not a video the engine can read; nothing is
    /// stored then (a staged upload is left for the caller to delete). The item has `visibility`, the library's
    /// `segmentFormat`, and its own key when `segmentEncryption` asks for one.
    public func ingest(
        file: String,
        originalName: String,
        title: String?,
        description: String?,
        visibility: MediaVisibility = .public,
        mode: IngestMode
    ) async throws -> MediaItem {
        let probe = try await Self.probe(file)
        let size = FileStatus(path: file)?.size ?? 0
        let stored = "\(mediaDirectory)/\(UUID().uuidString.lowercased())\(Self.storedExtension(for: originalName))"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let media = NewMedia(
            title: Self.title(title, originalName: originalName),
            description: description,
            sourceFileName: originalName,
            sourcePath: stored,
            sourceSize: size,
            duration: probe.duration,
            probeJSON: String(decoding: try encoder.encode(probe), as: UTF8.self),
            sourceSummaryJSON: probe.source.map(Self.storedJSON) ?? "null",
            tracksJSON: probe.tracks.map(Self.storedJSON) ?? "null",
            visibility: visibility,
            segmentFormat: segmentFormat
        )
        let item = try await IngestLock(mediaDirectory: mediaDirectory).withLock(exclusive: false) {
            do {
                try Self.place(file, at: stored, mode: mode)
                let item = try await catalog.insert(media)
                guard segmentEncryption == .aes128 else { return item }
                do {
                    try await catalog.setEncryptionKey(SegmentEncryption.newKey(), for: item.id)
                } catch {
                    _ = try? await catalog.delete(id: item.id)
                    throw error
                }
                return item
            } catch {
                try? FileManager.default.removeItem(atPath: stored)
                if let fault = StorageFault(error) { throw IngestError.notStored(fault) }
                throw error
            }
        }
        await events.record(.created, item: item)
        return item
    }

    /// Probes on NIO's thread pool: the prober blocks.
    static func probe(_ file: String) async throws -> MediaProbe {
        let probe: MediaProbe
        do {
            probe = try await NIOThreadPool.singleton.runIfActive { try MediaProber.probe(path: file) }
        } catch let error as MediaError {
            throw IngestError.notMedia(error.reason)
        } catch let error as FFmpegError {
            throw IngestError.notMedia(error.description)
        }
        guard probe.video != nil || probe.audio != nil else { throw IngestError.notMedia("it has no video or audio stream") }
        return probe
    }

    private static func place(_ file: String, at stored: String, mode: IngestMode) throws {
        switch mode {
        case .move:
            try FileManager.default.moveItem(atPath: file, toPath: stored)
        case .copy:
            if link(file, stored) != 0 {
                try FileManager.default.copyItem(atPath: file, toPath: stored)
            }
        }
    }

    /// The title given, or the file name without its extension.
    static func title(_ title: String?, originalName: String) -> String {
        if let title = title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty { return title }
        let stem = (originalName as NSString).deletingPathExtension
        return stem.isEmpty ? "Untitled" : stem
    }

    /// The original's extension when it is short and plain, such as `.mp4`; otherwise none.
    private static func storedExtension(for name: String) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        guard (1...8).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return ""
        }
        return ".\(ext)"
    }
}
