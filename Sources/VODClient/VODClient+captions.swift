import Foundation
import VODModel

extension VODClient {
    /// The captions added to item `id`, oldest first.
    public func captions(of id: Int64) async throws -> [Media.Caption] {
        try await decode([Media.Caption].self, from: send(.GET, "/api/media/\(id)/captions"))
    }

    /// Adds a WebVTT or SubRip file as a caption of ready item `id`, without transcoding it again.
    ///
    /// - Parameters:
    ///   - language: an RFC 5646 tag such as `fr` or `pt-BR`.
    ///   - name: what players list it as; by default the language in its own words.
    ///   - isDefault: whether players show it when subtitles are on and the viewer has not picked one.
    public func addCaption(
        to id: Int64, file: URL, language: String, name: String? = nil, isDefault: Bool = false
    ) async throws -> Media.Caption {
        guard let data = FileManager.default.contents(atPath: file.path) else { throw VODClientError.unreadableFile(file.path) }
        let fields = [("language", language), ("default", isDefault ? "true" : "false")] + (name.map { [("name", $0)] } ?? [])
        let form = MultipartForm(fields: fields, fileField: "file", fileName: file.lastPathComponent)
        let body = form.head + Array(data) + form.tail
        return try await decode(Media.Caption.self, from: send(.POST, "/api/media/\(id)/captions", body: body, contentType: form.contentType))
    }

    /// Removes caption `captionID` from item `mediaID`.
    public func deleteCaption(id captionID: Int64, of mediaID: Int64) async throws {
        _ = try await send(.DELETE, "/api/media/\(mediaID)/captions/\(captionID)")
    }
}
