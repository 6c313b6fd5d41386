import VODModel

extension SourceStage {
    /// The caption channels and services `captions` read from the pictures (those of the whole title, or of a
    /// split title's chunks): each named for the master, with the language of the video (else of the default
    /// audio track), the CEA-608 channel `cc_dec` read marked as the WebVTT one.
    func closedCaptionListings(of captions: ClosedCaptionTrack?) -> [ClosedCaptionListing] {
        guard let channels = captions?.channels else { return [] }
        let language = plan.listings.first { $0.type == "video" && $0.status == .rendition }?.language
            ?? (audioTracks.first { $0.isDefault } ?? audioTracks.first)?.language
        let name = TrackName.name(title: nil, language: language, fallback: "Captions")
        return channels.present.map { channel in
            ClosedCaptionListing(instreamID: channel, language: language, rendition: "\(name) (\(channel))",
                                 hasWebVTT: channel == channels.decodedChannel)
        } + channels.services.map { service in
            ClosedCaptionListing(instreamID: "SERVICE\(service)", language: language, rendition: "\(name) (Service \(service))",
                                 hasWebVTT: false)
        }
    }
}
