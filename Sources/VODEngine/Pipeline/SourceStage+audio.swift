import VODFFmpeg
import VODModel

extension SourceStage {
    /// Every video, audio and subtitle track, with what becomes of it and, once `run` has returned, the loudness
    /// of each audio track read and the caption channels `captions` read from the video's pictures.
    func trackListings(closedCaptions captions: ClosedCaptionTrack?) -> [TrackListing] {
        plan.listings.map { listing in
            var listing = listing
            listing.loudness = audioTracks.first { Int($0.stream.index) == listing.index }?.loudness
            if listing.type == "video", listing.status == .rendition, captions != nil {
                listing.closedCaptions = closedCaptionListings(of: captions)
            }
            return listing
        }
    }

    /// Takes a decoded frame of audio track `index`: held until the timeline's start is known, then measured and
    /// encoded.
    func pushAudio(_ frame: Frame, track index: Int, _ outputs: Outputs) throws {
        let track = audioTracks[index]
        let timestamp = frame.bestEffortTimestamp
        if zero == nil, !hasVideo {
            zero = frame.hasBestEffortTimestamp ? track.stream.timeBase.seconds(timestamp) : 0
        }
        guard let zero else {
            track.held.append(try frame.reference())
            if track.held.count > Self.heldAudioLimit { track.held.removeFirst() }
            return
        }
        try track.meter.measure(frame)
        let time = frame.hasBestEffortTimestamp ? track.stream.timeBase.seconds(timestamp) - zero : nil
        for encoding in track.encoders {
            let output = audioEncodings.firstIndex { $0 === encoding }!
            try encoding.push(frame, time: time) { try outputs.audio(output, $0) }
        }
    }

    /// Flushes every audio encoding, its sound fitted to the title's `duration` in seconds (cut, or filled with
    /// silence), calling `send` with each packet and the index of its encoding.
    func closeAudio(at duration: Double, send: (Int, Packet) throws -> Void) throws {
        for (index, encoding) in audioEncodings.enumerated() {
            try encoding.finish(duration: duration) { try send(index, $0) }
        }
    }

    /// Keeps audio track `index`'s loudness, once its decoder is drained.
    func finishAudio(track index: Int) throws {
        audioTracks[index].loudness = try audioTracks[index].meter.finish()
    }

    /// Audio frames held while waiting for the first picture: about a minute of AAC. Older ones come before the
    /// first picture, so they would be dropped anyway.
    static let heldAudioLimit = 3000
}
