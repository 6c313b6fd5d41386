// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "vod",
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .executable(name: "vod", targets: ["vod"]),
        .library(name: "VODEngine", targets: ["VODEngine"]),
        .library(name: "VODCatalog", targets: ["VODCatalog"]),
        .library(name: "VODPostgres", targets: ["VODPostgres"]),
        .library(name: "VODService", targets: ["VODService"]),
        .library(name: "VODServer", targets: ["VODServer"]),
        .library(name: "VODConformance", targets: ["VODConformance"]),
        .library(name: "VODModel", targets: ["VODModel"]),
        .library(name: "VODClient", targets: ["VODClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // Tests only: waits on the external tools they run without blocking a thread of the cooperative pool.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    ],
    targets: [
        // FFmpeg 5.1 C libraries, with a small shim for macros Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavfilter libavutil libswscale libswresample",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]
        ),
        // Swift owners for FFmpeg objects: each C object is freed exactly once.
        .target(name: "VODFFmpeg", dependencies: ["CFFmpeg"]),
        // The JSON types the server writes and clients read (the media JSON, status events), on Foundation alone.
        .target(name: "VODModel"),
        // Probe, ladder planning, the decode → scale → encode pipeline and the HLS packager.
        .target(name: "VODEngine", dependencies: [
            "VODFFmpeg",
            "VODModel",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The SQLite catalog of media items and the persistent transcode queue.
        .target(name: "VODCatalog", dependencies: [
            "VODModel",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The catalog and queue on PostgreSQL, for several machines.
        .target(name: "VODPostgres", dependencies: [
            "VODCatalog",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The runtime that is not HTTP: the media library and ingest, the transcode workers, the status event
        // recorder and feed, and webhook delivery.
        .target(name: "VODService", dependencies: [
            "VODEngine",
            "VODCatalog",
            "VODModel",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "_NIOFileSystem", package: "swift-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The HTTP edge: the API, which maps the service's errors to HTTP answers, and stream file serving; `openapi.json` describes the API and is served at /api/openapi.json,
        // and `Console/` is the web console served at / (plain ES modules and CSS, no build step).
        .target(name: "VODServer", dependencies: [
            "VODService",
            "VODEngine",
            "VODCatalog",
            "VODModel",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "_NIOFileSystem", package: "swift-nio"),
            .product(name: "CompressNIO", package: "compress-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "JWTKit", package: "jwt-kit"),
        ], resources: [.copy("Resources/openapi.json"), .copy("Resources/Console")]),
        // The Swift client of the API, for Linux, macOS and iOS: no FFmpeg, no database, no server.
        .target(name: "VODClient", dependencies: [
            "VODModel",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // Checks of HLS output against ../shared/hls-authoring-rules.md: playlists, segments, bandwidth, CODECS.
        .target(name: "VODConformance", dependencies: ["VODModel"]),
        .executableTarget(name: "vod", dependencies: [
            "VODEngine",
            "VODFFmpeg",
            "VODCatalog",
            "VODPostgres",
            "VODService",
            "VODServer",
            "VODConformance",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Test helpers: synthetic clips made with Debian's ffmpeg, and independent-client checks.
        .target(name: "VODTestSupport", dependencies: [
            .product(name: "Subprocess", package: "swift-subprocess"),
        ], path: "Tests/VODTestSupport"),
        // CFFmpeg for DolbyVisionFixture alone, which writes a Dolby Vision configuration record no production code writes.
        .testTarget(name: "VODEngineTests", dependencies: ["VODEngine", "VODFFmpeg", "CFFmpeg", "VODConformance", "VODTestSupport"]),
        .testTarget(name: "VODCommandTests", dependencies: ["VODTestSupport"]),
        .testTarget(name: "VODConformanceTests", dependencies: ["VODConformance", "VODModel", "VODTestSupport"]),
        .testTarget(name: "VODCatalogTests", dependencies: [
            "VODCatalog", "VODPostgres", "VODTestSupport", .product(name: "Logging", package: "swift-log"),
            .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
        ]),
        .testTarget(name: "VODServerTests", dependencies: [
            "VODService",
            "VODServer",
            "VODEngine",
            "VODCatalog",
            "VODModel",
            "VODConformance",
            "VODPostgres",
            "VODTestSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .testTarget(name: "VODClientTests", dependencies: [
            "VODClient",
            "VODModel",
            "VODTestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
