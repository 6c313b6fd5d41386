import Foundation
import Hummingbird

/// The request context of the vod API: JSON with unescaped slashes, so paths and URLs read as they are.
public struct VODRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
