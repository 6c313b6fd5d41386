import Foundation
import VODFFmpeg

/// What the decode stage does to every picture before the rungs scale it: cut vertical blanking, deinterlace,
/// tone-map HDR to SDR, and convert colour to BT.709 limited range, as one libavfilter graph; or, for the HDR
/// rungs, keep the HDR in BT.2020 10-bit limited range. Pictures that need none of it pass through untouched.
struct PictureCorrection: Sendable {
    /// Lines cut from the top of every picture (D-10's vertical blanking); an even number, so fields keep their
    /// parity.
    var blankingLines: Int
    /// Deinterlace with bwdif, one frame per frame; `all` also for frames not flagged interlaced.
    var deinterlace: (order: FieldOrder, all: Bool)?
    /// Tone-map from this HDR transfer (H.273 code point) to SDR.
    var toneMapFrom: Int32?
    /// The peak light level for the tone curve, in cd/m², when the stream declares one.
    var peakLuminance: Double
    /// The colour of the incoming pictures.
    var colour: SourceColour
    /// Whether the incoming pictures are RGB, whose conversion to YUV must use the BT.709 matrix.
    var rgb: Bool
    /// Whether the incoming pictures are already 10-bit 4:2:0, as HDR rungs encode them.
    var tenBit: Bool
    /// Whether the pictures keep their HDR transfer for the HDR rungs, in BT.2020 10-bit limited range, instead
    /// of being tone-mapped to SDR.
    var keepsHDR: Bool

    /// Plans the correction for a stream from its description and its first decoded picture, for the SDR rungs
    /// or, with `keepsHDR`, the HDR ones.
    init(stream: StreamPicture, firstFrame: Frame, keepsHDR: Bool = false) {
        self.keepsHDR = keepsHDR && stream.hdrTransfer != nil
        tenBit = firstFrame.pixelFormat == .yuv420p10le
        blankingLines = stream.blankingLines
        if let order = stream.fieldOrder {
            deinterlace = (order, true)
        } else if let order = firstFrame.fieldOrder {
            deinterlace = (order, false)
        }
        toneMapFrom = stream.needsToneMapping ? stream.colour.transfer : nil
        peakLuminance = stream.peakLuminance
        colour = stream.colour
        rgb = firstFrame.isRGB
    }

    /// The libavfilter graph description, or nil when pictures need no correction.
    var filterDescription: String? {
        var filters: [String] = []
        if blankingLines > 0 { filters.append("crop=w=iw:h=ih-\(blankingLines):x=0:y=\(blankingLines)") }
        if let deinterlace {
            let parity = deinterlace.order == .topFirst ? "tff" : "bff"
            filters.append("bwdif=mode=send_frame:parity=\(parity):deint=\(deinterlace.all ? "all" : "interlaced")")
        }
        let input = "tin=\(colour.transfer):pin=\(colour.primaries):min=\(colour.matrix):rin=\(colour.fullRange ? "full" : "limited")"
        if keepsHDR {
            if !tenBit || colour.primaries != SourceColour.bt2020 || colour.matrix != SourceColour.bt2020 || colour.fullRange {
                filters += ["zscale=\(input):t=\(colour.transfer):p=\(SourceColour.bt2020):m=\(SourceColour.bt2020):r=limited:dither=ordered:f=spline36",
                            "format=yuv420p10le"]
            }
        } else if toneMapFrom != nil {
            let peak = peakLuminance > 0 ? ":peak=\(Self.decimal(peakLuminance / Self.referenceWhite))" : ""
            filters += [
                "zscale=\(input):t=linear:npl=\(Int(Self.referenceWhite))",
                "format=gbrpf32le",
                "zscale=p=709",
                "tonemap=tonemap=hable:desat=0\(peak)",
                "zscale=t=709:m=709:r=limited:dither=ordered",
                "format=yuv420p",
            ]
        } else if rgb || !colour.isBT709Limited {
            // spline36 resamples the chroma planes around the matrix change with less loss than the default
            // bilinear: 2.0 against 2.6 mean RGB error on a detailed test pattern.
            filters += ["zscale=\(input):t=709:p=709:m=709:r=limited:dither=ordered:f=spline36", "format=yuv420p"]
        }
        return filters.isEmpty ? nil : filters.joined(separator: ",")
    }

    /// SDR reference white in cd/m²: linear light 1.0 after the first zscale.
    private static let referenceWhite = 100.0

    private static func decimal(_ value: Double) -> String { String(format: "%.3f", value) }
}
