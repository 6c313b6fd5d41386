import Foundation
import Hummingbird
import VODCatalog
import VODEngine
import VODService

/// The routes of `/api/media`: listing, reading, changing and deleting items, uploads and streaming.
struct MediaController: Sendable {
    let library: MediaLibrary
    let streamFiles: StreamFiles
    let jobs: RunningJobs
    let maxUploadSize: Int64
    /// Uploads being received, shared with `/api/uploads`.
    let uploadSlots: ConnectionSlots
    /// The bounds on a multipart upload's fields besides the file.
    let formLimits: ConnectionLimits
    let writeProtection: WriteProtection
    /// Issues and checks the playback tokens of private titles.
    let playback: PlaybackTokens
    let publicURL: String?
    /// Decoded probe summaries and variants of the rows served lately.
    let storedJSON: StoredJSONCache
    /// Where bytes served and uploaded are counted.
    let metrics: ServiceMetrics
    /// Caption changes, one title at a time.
    let captionEdits = SerialEdits()
    /// Thumbnails rendered lately.
    let thumbnails: ThumbnailCache
    /// The renditions and keyframes of titles asked for thumbnails lately.
    let thumbnailSources: ThumbnailSources
    /// Where thumbnails are read and rendered, within their limits.
    let thumbnailRenderer: ThumbnailRenderer
    /// Renders one thumbnail (`ThumbnailSource.render`); tests wrap it to watch the renders.
    let renderThumbnail: @Sendable (ThumbnailSource, Thumbnail.Snapped) throws -> Thumbnail.Rendered

    /// The largest page a `limit` may ask for; without `limit`, the list has every item.
    static let maximumLimit = 1000

    /// The largest body of a signed `PATCH`, `DELETE` or retry, which is read before the handler runs.
    static let maximumSignedBodySize = 64 * 1024

    /// Reads are public but for private titles (`PlaybackGrant`); writes go through `WriteProtectionMiddleware`.
    func addRoutes(to group: RouterGroup<VODRequestContext>) {
        group.group()
            .add(middleware: WriteProtectionMiddleware(protection: writeProtection, signatures: library.catalog, body: .streamed))
            .post(use: upload)
            .post(":id/captions", use: addCaption)
        group.group()
            .add(middleware: WriteProtectionMiddleware(protection: writeProtection, signatures: library.catalog, body: .collected(limit: Self.maximumSignedBodySize)))
            .patch(":id", use: update)
            .delete(":id", use: delete)
            .post(":id/retry", use: retry)
            .post(":id/playback-token", use: playbackToken)
            .delete(":id/captions/:captionId", use: deleteCaption)
        group.get(use: list)
        group.get(":id", use: show)
        group.get(":id/captions", use: listCaptions)
        group.get(":id/stream", use: master)
        group.head(":id/stream", use: master)
        group.get(":id/stream/**", use: streamFile)
        group.head(":id/stream/**", use: streamFile)
        group.get(":id/manifest.mpd", use: dashManifest)
        group.head(":id/manifest.mpd", use: dashManifest)
        group.get(":id/key", use: key)
        addStillRoutes(to: group)
    }

    @Sendable func list(_ request: Request, context: VODRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        var status: MediaStatus?
        if let value = query["status"] {
            guard let parsed = MediaStatus(rawValue: String(value)) else {
                throw APIError.badRequest("Unknown status '\(value)': use pending, processing, ready or failed")
            }
            status = parsed
        }
        // The contract lists all media: paging applies only when asked for.
        let limit = try Self.integer(query["limit"], name: "limit", range: 1...Self.maximumLimit)
        let offset = try Self.integer(query["offset"], name: "offset", range: 0...Int.max) ?? 0
        let items = try await library.catalog.list(
            status: status, includingPrivate: writeProtection.admitsPrivateReads(request.headers), limit: limit, offset: offset
        )
        return MediaResponse.list(items.map { representation(of: $0, request: request) })
    }

    /// A private title is shown only to a request with an API key: to others it does not exist.
    @Sendable func show(_ request: Request, context: VODRequestContext) async throws -> MediaResponse {
        let item = try await item(context)
        guard !item.isPrivate || writeProtection.admitsPrivateReads(request.headers) else { throw APIError.mediaNotFound }
        return representation(of: item, request: request)
    }

    @Sendable func update(_ request: Request, context: VODRequestContext) async throws -> MediaResponse {
        struct Changes: Decodable {
            var title: String?
            var description: String?
            var visibility: MediaVisibility?

            private enum CodingKeys: String, CodingKey { case title, description, visibility }

            /// A key may be left out; one that is present must hold a string (for `visibility`, `public` or
            /// `private`), since `null` would change nothing.
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                title = try container.contains(.title) ? container.decode(String.self, forKey: .title) : nil
                description = try container.contains(.description) ? container.decode(String.self, forKey: .description) : nil
                if container.contains(.visibility) {
                    let value = try container.decode(String.self, forKey: .visibility)
                    guard let visibility = MediaVisibility(rawValue: value) else {
                        throw DecodingError.dataCorruptedError(forKey: .visibility, in: container, debugDescription: "neither public nor private")
                    }
                    self.visibility = visibility
                }
            }
        }
        let id = try Self.id(context)
        let changes: Changes
        do {
            changes = try await request.decode(as: Changes.self, context: context)
        } catch {
            throw APIError.badRequest(
                "Send a JSON object with \"title\" and/or \"description\" strings and/or \"visibility\" (public or private)"
            )
        }
        if let title = changes.title, title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw APIError.badRequest("The title cannot be empty")
        }
        guard let item = try await library.catalog.update(
            id: id, title: changes.title, description: changes.description, visibility: changes.visibility
        ) else { throw APIError.mediaNotFound }
        // The stream files hold the visibility with the folder: the next request asks the catalog again, here
        // at once and on the other nodes once the event reaches them (`CacheInvalidation`).
        if changes.visibility != nil { streamFiles.forget(id: id) }
        await library.events.record(.updated, item: item)
        return representation(of: item, request: request)
    }

    @Sendable func delete(_ request: Request, context: VODRequestContext) async throws -> Response {
        let id = try Self.id(context)
        guard let item = try await library.catalog.delete(id: id) else { throw APIError.mediaNotFound }
        await jobs.cancel(id)
        streamFiles.forget(id: id)
        library.removeFiles(of: item)
        await library.events.record(.deleted, item: item)
        context.logger.info("media deleted", metadata: ["media.id": "\(id)"])
        return Response(status: .noContent)
    }

    @Sendable func retry(_ request: Request, context: VODRequestContext) async throws -> MediaResponse {
        let id = try Self.id(context)
        do {
            guard let item = try await library.catalog.retry(id: id) else { throw APIError.mediaNotFound }
            streamFiles.forget(id: id)
            return representation(of: item, request: request)
        } catch let error as CatalogError {
            throw APIError.conflict(error.description)
        }
    }

    /// The item named by the `:id` parameter.
    func item(_ context: VODRequestContext) async throws -> MediaItem {
        guard let item = try await library.catalog.media(id: try Self.id(context)) else { throw APIError.mediaNotFound }
        return item
    }

    /// The `:id` parameter; an id that is not a positive integer names no media.
    static func id(_ context: VODRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else { throw APIError.mediaNotFound }
        return id
    }

    func representation(of item: MediaItem, request: Request) -> MediaResponse {
        MediaResponse(item: item, streamURL: streamURL(of: item.id, request: request),
                      stored: storedJSON.fields(of: item))
    }

    /// `--public-url`, or the URL the client used to reach this server.
    func baseURL(for request: Request) -> String {
        request.baseURL(publicURL: publicURL)
    }

    private static func integer(_ value: Substring?, name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let value else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw APIError.badRequest("'\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
