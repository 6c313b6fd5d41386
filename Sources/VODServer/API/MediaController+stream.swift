import Hummingbird

extension MediaController {
    /// The route patterns of the master and of the other stream files, as the request metrics label them.
    static let masterRoute = "/api/media/{id}/stream"
    static let streamFileRoute = "/api/media/{id}/stream/**"

    /// `GET /api/media/:id/stream`: the master playlist, its URIs rewritten to resolve from this URL. The router
    /// brings `/api/media/:id/stream/` here too, whose URIs resolve from a base one level down: it gets the master
    /// as `stream/master.m3u8` serves it.
    @Sendable func master(_ request: Request, context: VODRequestContext) async throws -> Response {
        if request.uri.path.hasSuffix("/") {
            return try await streamFile(request, context: context, components: [Substring(StreamFiles.masterFile)])
        }
        let grant = try await streamGrant(request, context: context)
        let id = try Self.id(context)
        let master = try await encrypting(try await streamFiles.master(id: id), id: id, components: nil)
        return try await serve(master, grant: grant, request: request, context: context)
    }

    /// `GET /api/media/:id/manifest.mpd`: the DASH manifest of an fMP4 title, describing its HLS segments; an
    /// MPEG-TS title has none, and answers 404 saying so.
    @Sendable func dashManifest(_ request: Request, context: VODRequestContext) async throws -> Response {
        let grant = try await streamGrant(request, context: context)
        let item = try await self.item(context)
        guard item.segmentFormat == .fmp4 else {
            throw APIError.http(.notFound, message: "No DASH manifest: this title's segments are MPEG-TS (segment_format ts); DASH describes fMP4 titles only")
        }
        guard try await streamFiles.encryptionKey(of: item.id) == nil else {
            throw APIError.http(.notFound, message: "No DASH manifest: this title's segments are served with HLS AES-128 encryption, which DASH players cannot open (they would need Common Encryption)")
        }
        return try await serve(try await streamFiles.dashManifest(id: item.id), grant: grant, request: request, context: context)
    }

    /// `GET /api/media/:id/stream/<rung>/<file>`: variant playlists and segments.
    @Sendable func streamFile(_ request: Request, context: VODRequestContext) async throws -> Response {
        try await streamFile(request, context: context, components: context.parameters.getCatchAll())
    }

    /// The stream file at `components` below the stream of the request's item.
    private func streamFile(_ request: Request, context: VODRequestContext, components: [Substring]) async throws -> Response {
        let grant = try await streamGrant(request, context: context)
        let id = try Self.id(context)
        let file = try await encrypting(try await streamFiles.file(id: id, components: components), id: id, components: components)
        do {
            return try await serve(file, grant: grant, request: request, context: context)
        } catch let error as HTTPError where error.status == .notFound {
            throw APIError.segmentNotFound(components.joined(separator: "/"))
        }
    }

    /// `file` of title `id` at `components` (nil: the master), encrypted when the title is served encrypted.
    private func encrypting(_ file: StreamFile, id: Int64, components: [Substring]?) async throws -> StreamFile {
        guard let key = try await streamFiles.encryptionKey(of: id) else { return file }
        return try await file.encrypted(with: SegmentCipher(key: key), components: components, segments: streamFiles.segments)
    }

    /// The response for `file` read with `grant`, its body bytes counted as served.
    private func serve(_ file: StreamFile, grant: PlaybackGrant?, request: Request, context: VODRequestContext) async throws -> Response {
        let response = try await playbackResponse(file, grant: grant, request: request, context: context)
        metrics.servedBytes.increment(by: Int64(response.body.contentLength ?? 0))
        return response
    }
}
