import VODFFmpeg

/// What a video stream says about its pictures: dynamic range, fields, colour, light level and blanking.
struct StreamPicture: Sendable {
    /// PQ, HLG or Dolby Vision; nil for SDR.
    let dynamicRange: DynamicRange?
    /// The order of the fields when the container or codec says the video is interlaced.
    let fieldOrder: FieldOrder?
    /// The colour of the decoded pictures (for Dolby Vision, of its base layer).
    let colour: SourceColour
    /// The brightest level the stream declares (MaxCLL, else the mastering display's peak), in cd/m²; 0 if none.
    let peakLuminance: Double
    /// The Dolby Vision profile and base-layer compatibility id, when the stream has a configuration record.
    let dolbyVision: (profile: Int32, compatibility: Int32)?
    /// The lines of vertical blanking at the top of the coded picture, cut before anything else: the 32 of a
    /// D-10 (IMX) picture, MPEG-2 coded 720×608 for 576 PAL lines; 0 for every other picture.
    let blankingLines: Int

    init(stream: MediaStream) {
        blankingLines = stream.codecName == "mpeg2video" && stream.width == 720 && stream.height == 608 ? 32 : 0
        dolbyVision = stream.dolbyVision
        let baseTransfer = dolbyVision.flatMap { Self.baseLayerTransfer(compatibility: $0.compatibility) }
        colour = SourceColour(stream: stream, transfer: baseTransfer)
        peakLuminance = stream.peakLuminance
        fieldOrder = stream.fieldOrder
        if dolbyVision != nil {
            dynamicRange = .dolbyVision
        } else if colour.transfer == SourceColour.pq {
            dynamicRange = .pq
        } else if colour.transfer == SourceColour.hlg {
            dynamicRange = .hlg
        } else {
            dynamicRange = nil
        }
    }

    /// The HDR transfer an HDR rendition keeps: PQ or HLG, also that of a Dolby Vision base layer; nil for SDR.
    var hdrTransfer: DynamicRange? {
        colour.transfer == SourceColour.pq ? .pq : colour.transfer == SourceColour.hlg ? .hlg : nil
    }

    /// Whether the decoded pictures carry HDR light levels that must be tone-mapped for SDR screens.
    var needsToneMapping: Bool {
        colour.transfer == SourceColour.pq || colour.transfer == SourceColour.hlg
    }

    /// Throws for pictures that cannot be shown correctly on an SDR screen.
    func checkConvertible() throws {
        guard let dolbyVision, dolbyVision.compatibility == 0 else { return }
        throw MediaError.unsupported(
            "the video is Dolby Vision profile \(dolbyVision.profile), which has no HDR10, HLG or SDR base layer; "
                + "its colours cannot be converted to SDR without Dolby's own processing"
        )
    }

    /// The transfer a Dolby Vision base layer carries, from its compatibility id: 1 and 6 are HDR10 (PQ),
    /// 2 is SDR (BT.709), 4 is HLG.
    private static func baseLayerTransfer(compatibility: Int32) -> Int32? {
        switch compatibility {
        case 1, 6: SourceColour.pq
        case 2: SourceColour.bt709
        case 4: SourceColour.hlg
        default: nil
        }
    }
}
