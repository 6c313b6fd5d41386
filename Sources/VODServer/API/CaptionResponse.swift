import Hummingbird
import VODCatalog
import VODEngine
import VODModel

/// The JSON of an uploaded caption: its id, language, NAME and default flag, and where players and people
/// fetch it.
struct CaptionResponse: ResponseGenerator {
    let caption: Caption
    /// The absolute URL of the item's master playlist, under which the caption's files are served.
    let streamURL: String

    /// The JSON object, keys in alphabetical order.
    var json: String {
        typealias Key = Media.Caption.CodingKeys
        var object = OrderedJSONObject()
        object.add(Key.createdAt, caption.createdAt)
        object.add(Key.isDefault, caption.isDefault)
        object.add(Key.id, caption.id)
        object.add(Key.language, caption.language)
        object.add(Key.mediaID, caption.mediaID)
        object.add(Key.name, caption.name)
        object.add(Key.playlistURL, "\(streamURL)/\(CaptionRendition.playlist(id: caption.id))")
        object.add(Key.url, "\(streamURL)/\(CaptionRendition.completeFile(id: caption.id))")
        return object.json
    }

    /// A JSON array of captions.
    static func array(_ captions: [Caption], streamURL: String) -> String {
        "[" + captions.map { CaptionResponse(caption: $0, streamURL: streamURL).json }.joined(separator: ",") + "]"
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .created, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
