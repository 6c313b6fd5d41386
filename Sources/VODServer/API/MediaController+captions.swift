import Foundation
import Hummingbird
import VODCatalog
import VODEngine
import VODModel

extension MediaController {
    /// The largest caption file taken: a feature film's SubRip file is a few hundred kilobytes.
    static let maximumCaptionSize: Int64 = 8 << 20

    /// `POST /api/media/:id/captions`: a multipart form with `file` (WebVTT or SubRip), `language` (RFC 5646),
    /// and optionally `name` and `default`. The caption becomes a WebVTT rendition of the ready title without a
    /// new transcode, and the master is replaced atomically. Bad input changes nothing.
    @Sendable func addCaption(_ request: Request, context: VODRequestContext) async throws -> Response {
        let item = try await item(context)
        guard item.isReady, let folder = item.hlsPath, let duration = item.duration else {
            throw APIError.unprocessable("Captions can be added once the media is ready; it is \(item.status.rawValue)")
        }
        let form = try await receiveCaptionForm(request)
        guard let language = form.fields["language"]?.trimmingCharacters(in: .whitespaces), !language.isEmpty else {
            throw APIError.badRequest("The form needs a \"language\" field with an RFC 5646 tag such as \"en\" or \"pt-BR\"")
        }
        if let problem = LanguageTag.problem(language) {
            throw APIError.unprocessable("The language \(problem)")
        }
        let isDefault = try Self.flag(form.fields["default"], name: "default")
        let name = form.fields["name"]?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
        let file: CaptionFile
        do {
            file = try CaptionFile(data: form.data).fitted(to: duration)
        } catch {
            throw APIError.unprocessable("The caption file cannot be used: \(error)")
        }
        let title = URL(fileURLWithPath: folder)
        let caption = try await captionEdits.run(item.id) { [library, streamFiles] in
            let existing = try await library.catalog.captions(mediaID: item.id)
            let entryName = try CaptionRendition.name(name, language: language, title: title, captions: existing.map(\.entry))
            guard let caption = try await library.catalog.insertCaption(
                NewCaption(mediaID: item.id, language: language, name: entryName, isDefault: isDefault)
            ) else { throw APIError.mediaNotFound }
            do {
                try CaptionRendition.write(file, id: caption.id, title: title)
                try CaptionRendition.publishMaster(of: title, captions: try await library.catalog.captions(mediaID: item.id).map(\.entry))
            } catch {
                _ = try? await library.catalog.deleteCaption(id: caption.id, mediaID: item.id)
                try? CaptionRendition.remove(id: caption.id, title: title)
                throw error
            }
            streamFiles.forget(id: item.id)
            return caption
        }
        await library.events.record(.updated, id: item.id)
        context.logger.info("caption added", metadata: ["media.id": "\(item.id)", "caption.id": "\(caption.id)"])
        var response = try CaptionResponse(caption: caption, streamURL: streamURL(of: item.id, request: request))
            .response(from: request, context: context)
        response.headers[.location] = "\(baseURL(for: request))/api/media/\(item.id)/captions/\(caption.id)"
        return response
    }

    /// `GET /api/media/:id/captions`: the item's uploaded captions, oldest first.
    @Sendable func listCaptions(_ request: Request, context: VODRequestContext) async throws -> Response {
        let item = try await item(context)
        _ = try await grant(request, id: item.id, visibility: item.visibility)
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(string: CaptionResponse.array(item.captions, streamURL: streamURL(of: item.id, request: request)))))
    }

    /// `DELETE /api/media/:id/captions/:captionId`: takes the rendition out of the master, then removes its files.
    @Sendable func deleteCaption(_ request: Request, context: VODRequestContext) async throws -> Response {
        let item = try await item(context)
        guard let captionID = context.parameters.get("captionId", as: Int64.self) else { throw APIError.captionNotFound }
        try await captionEdits.run(item.id) { [library, streamFiles] in
            guard try await library.catalog.deleteCaption(id: captionID, mediaID: item.id) != nil else { throw APIError.captionNotFound }
            if let folder = item.hlsPath {
                let title = URL(fileURLWithPath: folder)
                try CaptionRendition.publishMaster(of: title, captions: try await library.catalog.captions(mediaID: item.id).map(\.entry))
                streamFiles.forget(id: item.id)
                try CaptionRendition.remove(id: captionID, title: title)
            }
        }
        await library.events.record(.updated, id: item.id)
        context.logger.info("caption deleted", metadata: ["media.id": "\(item.id)", "caption.id": "\(captionID)"])
        return Response(status: .noContent)
    }

    /// The caption form: its text fields, and the file's bytes (small enough to hold).
    private func receiveCaptionForm(_ request: Request) async throws -> (fields: [String: String], data: Data) {
        guard let boundary = request.headers[.contentType].flatMap(MultipartParser.boundary(fromContentType:)) else {
            throw APIError.unsupportedContentType(request.headers[.contentType])
        }
        let staging = library.uploadStagingPath()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let form: UploadReceiver.Form
        do {
            form = try await UploadReceiver(stagingPath: staging, limit: Self.maximumCaptionSize, formLimits: formLimits)
                .receiveMultipart(request.body, boundary: boundary)
        } catch is IncompleteUpload {
            throw APIError.badRequest("The upload ended before it was complete")
        } catch let error as MultipartParser.Malformed {
            throw APIError.badRequest("Malformed multipart body: \(error.reason)")
        }
        guard form.hasFile, form.fileSize > 0 else {
            throw APIError.badRequest("No caption file: send a multipart/form-data field named \"file\" with a WebVTT or SubRip file")
        }
        return (form.fields, try Data(contentsOf: URL(fileURLWithPath: staging)))
    }

    /// A form's boolean: absent is false; `true`/`false`, `1`/`0`, `yes`/`no`.
    private static func flag(_ value: String?, name: String) throws -> Bool {
        switch value?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "false", "0", "no": return false
        case "true", "1", "yes": return true
        default: throw APIError.badRequest("\"\(name)\" must be true or false")
        }
    }

    /// The absolute URL of item `id`'s master playlist.
    func streamURL(of id: Int64, request: Request) -> String {
        "\(baseURL(for: request))/api/media/\(id)/stream"
    }
}

extension Caption {
    /// What the master says of the caption.
    var entry: CaptionEntry { CaptionEntry(id: id, language: language, name: name, isDefault: isDefault) }
}

extension String {
    /// Nil for an empty string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
