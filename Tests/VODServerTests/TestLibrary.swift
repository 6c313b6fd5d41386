import Foundation
import Hummingbird
import Logging
import VODCatalog
import VODEngine
import VODModel
import VODServer
import VODService
import VODTestSupport

/// A catalog and media folders in a fresh temporary folder, and servers built on them.
struct TestLibrary {
    let directory: TemporaryDirectory
    var library: MediaLibrary

    var root: String { directory.url.path }
    var databasePath: String { "\(root)/media/vod.sqlite" }
    var mediaDirectory: String { "\(root)/media" }
    var outputDirectory: String { "\(root)/hls_output" }

    init() throws {
        directory = try TemporaryDirectory()
        let databasePath = directory.url.path + "/media/vod.sqlite"
        library = try MediaLibrary(
            catalog: try SQLiteCatalog(path: databasePath),
            mediaDirectory: directory.url.path + "/media",
            outputDirectory: directory.url.path + "/hls_output"
        )
    }

    /// A library on `catalog`, with its folders in `directory`: several libraries then share one catalog and
    /// folders, as API nodes on several machines do.
    init(directory: TemporaryDirectory, catalog: any MediaCatalog) throws {
        self.directory = directory
        library = try MediaLibrary(
            catalog: catalog, mediaDirectory: directory.url.path + "/media", outputDirectory: directory.url.path + "/hls_output",
            isShared: true
        )
    }

    var catalog: any MediaCatalog { library.catalog }

    /// A server on a free loopback port; `workers: 0` serves the API without transcoding.
    func app(workers: Int = 0, maxUploadSize: Int64 = 1 << 40, ladder: [Rung] = TestLibrary.ladder) -> some ApplicationProtocol {
        var logger = Logger(label: "vod-test")
        logger.logLevel = .warning
        let configuration = VODServerConfiguration(
            host: "127.0.0.1",
            port: 0,
            workers: workers,
            maxUploadSize: maxUploadSize,
            transcodeOptions: TranscodeOptions(ladder: ladder, preset: "ultrafast"),
            pollInterval: 0.1
        )
        return buildApplication(configuration: configuration, library: library, logger: logger)
    }

    /// Two small rungs, so that tests play more than one variant quickly.
    static let ladder = [
        Rung(name: "240p", width: 320, height: 240, bitrate: 300_000),
        Rung(name: "180p", width: 240, height: 180, bitrate: 200_000),
    ]

    /// Files in the media folder other than the catalog's own.
    func storedMedia() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: mediaDirectory).filter { !$0.hasPrefix("vod.sqlite") }.sorted()
    }

    /// Adds an item the way an upload does, without HTTP.
    func addPending(title: String = "clip", format: SegmentFormat = .ts) async throws -> MediaItem {
        try await catalog.insert(
            NewMedia(
                title: title, description: "about \(title)", sourceFileName: "\(title).mp4",
                sourcePath: "\(mediaDirectory)/\(title).mp4", sourceSize: 10, duration: 1319.6, probeJSON: nil,
                segmentFormat: format
            )
        )
    }

    /// Adds a ready item whose renditions are hand-written files: a master with relative URIs, one variant
    /// playlist with two segments, and an I-frame playlist; `format` is what the catalog says of its segments.
    func addReady(title: String = "The Office S01E03 - Health Care", format: SegmentFormat = .ts) async throws -> MediaItem {
        let (item, job, folder) = try await addRenditions(title: title, format: format)
        let variants = """
            [{"averageBandwidth":700000,"bandwidth":800000,"codecs":"avc1.64001f,mp4a.40.2","frameRate":30,\
            "height":720,"name":"720p","playlist":"720p/index.m3u8","segmentCount":2,"width":1280}]
            """
        let completed = CompletedTranscode(hlsPath: folder, duration: 1320.2, variantsJSON: variants)
        _ = try await catalog.markReady(job, result: completed)
        return try await catalog.media(id: item.id)!
    }

    /// Adds an item still processing whose hand-written renditions (those of `addReady`) are published: playable.
    func addPlayable(title: String = "clip") async throws -> MediaItem {
        let (item, job, folder) = try await addRenditions(title: title, format: .ts)
        _ = try await catalog.markPlayable(job, hlsPath: folder)
        return try await catalog.media(id: item.id)!
    }

    /// Adds a pending item, claims its job and writes its renditions' files; returns the item, the job and the folder.
    private func addRenditions(title: String, format: SegmentFormat) async throws -> (MediaItem, JobLease, String) {
        let item = try await addPending(title: title, format: format)
        let job = try await catalog.claimNextJob(worker: "test", lease: .seconds(60))!
        let folder = library.outputFolder(for: item.id)
        try FileManager.default.createDirectory(atPath: "\(folder)/720p", withIntermediateDirectories: true)
        try write(Self.master, to: "\(folder)/master.m3u8")
        try write(Self.variant, to: "\(folder)/720p/index.m3u8")
        try write(Self.iframes, to: "\(folder)/720p/iframes.m3u8")
        try Data(Self.segmentBytes).write(to: URL(fileURLWithPath: "\(folder)/720p/segment_000.ts"))
        try Data(Self.segmentBytes.reversed()).write(to: URL(fileURLWithPath: "\(folder)/720p/segment_001.ts"))
        return (item, job, folder)
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static let master = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"
        720p/index.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,RESOLUTION=1280x720,CODECS="avc1.64001f",URI="720p/iframes.m3u8"

        """
    static let variant = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:6.000,
        segment_000.ts
        #EXTINF:4.000,
        segment_001.ts
        #EXT-X-ENDLIST

        """
    static let iframes = """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-I-FRAMES-ONLY
        #EXT-X-TARGETDURATION:6
        #EXTINF:6.000,
        #EXT-X-BYTERANGE:188@0
        segment_000.ts
        #EXT-X-ENDLIST

        """
    /// 5000 bytes that differ at every offset modulo 251, so a wrong slice shows.
    static let segmentBytes: [UInt8] = (0..<5000).map { UInt8($0 % 251) }
}

/// Runs blocking work (external tools, polling) on its own thread, off Swift's small cooperative pool,
/// which the in-process server needs.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

extension ByteBuffer {
    var text: String { String(buffer: self) }
}
