import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypesHTTP1
@testable import VODServer

extension EmbeddedChannel {
    /// A channel with the server's HTTP/1 pipeline, its HTTPTypes codec, then `fastPath`, in the order
    /// `StreamFastPath.Installer` leaves them (without Hummingbird's handlers after it).
    static func streamPipeline(_ fastPath: StreamFastPath) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false)
        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        try channel.pipeline.syncOperations.addHandler(fastPath)
        return channel
    }

    /// `streamPipeline` with a `StreamRawPath` before the HTTP/1 encoder, where the installer puts it, both
    /// serving `files` and counting in `metrics`.
    static func rawStreamPipeline(files: StreamFiles, metrics: ServiceMetrics) throws -> EmbeddedChannel {
        let fastPath = StreamFastPath(files: files, metrics: metrics, serverName: "vod")
        let channel = try streamPipeline(fastPath)
        let encoder = try channel.pipeline.syncOperations.handler(type: HTTPResponseEncoder.self)
        try channel.pipeline.syncOperations.addHandler(
            StreamRawPath(files: files, metrics: metrics, serverName: "vod", idleTimeout: nil, fastPath: fastPath),
            position: .before(encoder))
        return channel
    }
}
