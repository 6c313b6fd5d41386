import Foundation
import VODModel

extension MediaVisibility {
    /// The visibility an upload asks for (form field, query parameter or tus metadata): nil when it names none,
    /// 400 when it names neither `public` nor `private`.
    init?(parameter: String?) throws {
        guard let parameter else { return nil }
        guard let visibility = MediaVisibility(rawValue: parameter.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw APIError.badRequest("'visibility' must be public or private")
        }
        self = visibility
    }
}
