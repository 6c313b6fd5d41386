import Foundation
import Hummingbird
import NIOCore

/// The request context of the vod API: JSON with unescaped slashes, so paths and URLs read as they are.
public struct VODRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection, for middleware that must stop reading from it.
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
