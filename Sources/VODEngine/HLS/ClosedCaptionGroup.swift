import VODModel

/// The CEA-608/708 captions every rung's H.264 carries, as the master announces them: one
/// `#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS` per CEA-608 channel or CEA-708 service, in one group that every variant names.
enum ClosedCaptionGroup {
    /// The GROUP-ID of the caption channels.
    static let id = "cc"

    /// The `#EXT-X-MEDIA` line of one channel: never on by default, picked by a viewer's accessibility settings.
    static func media(_ channel: ClosedCaptionListing) -> String {
        var attributes = ["TYPE=CLOSED-CAPTIONS", "GROUP-ID=\"\(id)\"", "NAME=\"\(PlaylistWriter.quotable(channel.rendition))\""]
        if let language = channel.language { attributes.append("LANGUAGE=\"\(language)\"") }
        attributes += ["DEFAULT=NO", "AUTOSELECT=YES", "INSTREAM-ID=\"\(channel.instreamID)\""]
        return "#EXT-X-MEDIA:" + attributes.joined(separator: ",")
    }
}
