extension VariantSummary {
    /// A video variant: its rung, with the bitrates and codecs the master declares for it.
    init(_ rendition: Rendition, declared: VariantBandwidth) {
        self.init(name: rendition.rung.name, width: rendition.rung.width, height: rendition.rung.height,
                  bandwidth: declared.peak, averageBandwidth: declared.average, codecs: declared.codecs,
                  frameRate: rendition.frameRate, segmentCount: rendition.segments.count,
                  playlist: "\(rendition.rung.name)/\(PlaylistWriter.mediaPlaylist)",
                  rateControl: rendition.rung.crf == nil ? .fixed : .quality, crf: rendition.rung.crf,
                  videoRange: rendition.rung.videoRange)
    }

    /// A variant of an audio-only title, named after its group (`aac`, `ac3`): no picture, so no size or rate.
    init(_ variant: AudioOnlyVariant) {
        self.init(name: variant.group, width: 0, height: 0, bandwidth: variant.peak, averageBandwidth: variant.average,
                  codecs: variant.codec, frameRate: 0, segmentCount: variant.segmentCount, playlist: variant.playlist)
    }
}
