/// The name of a member of an `OrderedJSONObject`.
package protocol JSONKey {
    /// The member's name as written.
    var jsonKey: String { get }
}

extension String: JSONKey {
    package var jsonKey: String { self }
}

extension JSONKey where Self: CodingKey {
    package var jsonKey: String { stringValue }
}

// The keys of the JSON that clients decode with VODModel's types: the hand-written writers take their names
// from these, so that a key renamed in VODModel is renamed in what the server writes.
extension Media.CodingKeys: JSONKey {}
extension Media.Variant.CodingKeys: JSONKey {}
extension Media.Caption.CodingKeys: JSONKey {}
extension Media.Thumbnails.CodingKeys: JSONKey {}
extension Media.Thumbnails.Poster.CodingKeys: JSONKey {}
extension Media.RungProgress.CodingKeys: JSONKey {}
extension StatusEvent.CodingKeys: JSONKey {}
