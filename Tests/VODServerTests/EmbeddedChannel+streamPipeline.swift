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
}
