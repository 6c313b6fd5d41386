import Foundation
import HTTPTypes
import Hummingbird
import VODEngine
import VODModel

extension MediaController {
    /// The routes of a ready title's pictures: its poster, its stills folder (posters by width, the storyboard
    /// and its sheets) and thumbnails rendered on demand.
    func addStillRoutes(to group: RouterGroup<VODRequestContext>) {
        group.get(":id/poster.jpg", use: poster)
        group.head(":id/poster.jpg", use: poster)
        group.get(":id/stills/:file", use: still)
        group.head(":id/stills/:file", use: still)
        group.get(":id/thumbnail.jpg", use: thumbnail)
        group.head(":id/thumbnail.jpg", use: thumbnail)
    }

    /// `GET /api/media/:id/poster.jpg`: the largest poster.
    @Sendable func poster(_ request: Request, context: VODRequestContext) async throws -> Response {
        try await stillFile(StillsManifest.posterFile, request: request, context: context)
    }

    /// `GET /api/media/:id/stills/<file>`: `poster_<width>.jpg`, `storyboard.vtt`, `storyboard_<n>.jpg`.
    @Sendable func still(_ request: Request, context: VODRequestContext) async throws -> Response {
        try await stillFile(context.parameters.get("file") ?? "", request: request, context: context)
    }

    /// Serves `name` from the title's `stills/` folder through the stream files (path checks, ETag, caching).
    private func stillFile(_ name: String, request: Request, context: VODRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let grant = try await streamGrant(request, context: context)
        do {
            let file = try await streamFiles.file(id: id, components: [Substring(StillsManifest.folder), Substring(name)])
            return try await playbackResponse(file, grant: grant, request: request, context: context)
        } catch let error as APIError where error == .segmentNotFound("\(StillsManifest.folder)/\(name)") {
            throw APIError.http(.notFound, message: "Still not found")
        } catch let error as HTTPError where error.status == .notFound {
            throw APIError.http(.notFound, message: "Still not found")
        }
    }

    /// `GET /api/media/:id/thumbnail.jpg?time=12.5&width=320`: the keyframe nearest `time`, at the next of
    /// `Thumbnail.widths`, read and rendered on the thumbnail renderer's threads within its limits and kept in
    /// memory by what it shows; `X-Thumbnail-Time` and `X-Thumbnail-Width` say what that is.
    @Sendable func thumbnail(_ request: Request, context: VODRequestContext) async throws -> Response {
        let item = try await item(context)
        let grant = try await grant(request, id: item.id, visibility: item.visibility)
        let query = try ThumbnailQuery(request.uri.queryParameters)
        guard item.isReady, let hlsPath = item.hlsPath else { throw APIError.notReady }
        let duration = item.duration ?? 0
        guard query.time <= duration else {
            throw APIError.badRequest("'time' must be a number of seconds from 0 to the duration (\(OrderedJSONObject.number(duration)))")
        }
        let source = try await thumbnailSources.source(folder: hlsPath) { folder in
            try await thumbnailRenderer.run { try ThumbnailSource(titleFolder: URL(fileURLWithPath: folder)) }
        }
        guard let snapped = source.snap(time: min(query.time, duration), width: query.width) else {
            throw APIError.http(.notFound, message: "This title has no picture")
        }
        let key = ThumbnailCache.Key(folder: hlsPath, snapped: snapped)
        let file: StreamFile
        if let cached = thumbnails.file(for: key) {
            file = cached
        } else {
            let rendered = try await thumbnailRenderer.run { [renderThumbnail] in try renderThumbnail(source, snapped) }
            metrics.thumbnailRenders.increment()
            file = try StreamFile(bytes: Array(rendered.jpeg), contentType: "image/jpeg", modified: Date(), gzip: false)
            thumbnails.store(file, for: key)
        }
        var response = try await playbackResponse(file, grant: grant, request: request, context: context)
        response.headers[.thumbnailTime] = OrderedJSONObject.number((snapped.time * 1000).rounded() / 1000)
        response.headers[.thumbnailWidth] = String(snapped.width)
        return response
    }
}

extension HTTPField.Name {
    /// The time of the keyframe a thumbnail shows, in seconds: the time asked for, snapped.
    static let thumbnailTime = Self("X-Thumbnail-Time")!
    /// The width of a thumbnail: the width asked for, snapped.
    static let thumbnailWidth = Self("X-Thumbnail-Width")!
}
