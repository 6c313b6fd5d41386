import VODModel

extension SourceStage {
    /// The CEA-608 channels the pictures carried, once `run` has returned: each named for the master, with the
    /// language of the video (else of the default audio track), the one `cc_dec` read marked as the WebVTT one.
    var closedCaptionListings: [ClosedCaptionListing] {
        guard let channels = closedCaptions?.channels else { return [] }
        let language = plan.listings.first { $0.type == "video" && $0.status == .rendition }?.language
            ?? (audioTracks.first { $0.isDefault } ?? audioTracks.first)?.language
        let name = TrackName.name(title: nil, language: language, fallback: "Captions")
        return channels.present.map { channel in
            ClosedCaptionListing(instreamID: channel, language: language, rendition: "\(name) (\(channel))",
                                 hasWebVTT: channel == channels.decodedChannel)
        }
    }
}
