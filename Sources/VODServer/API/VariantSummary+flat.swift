import VODEngine

extension VariantSummary {
    /// The variant an object of the catalog's variants column describes, with the keys `Codable` gives it; nil
    /// if a member is missing or of another type.
    init?(flat object: [String: FlatJSONArray.Value]) {
        guard case .string(let name) = object["name"], case .string(let codecs) = object["codecs"],
              case .string(let playlist) = object["playlist"],
              let width = Self.integer(object["width"]), let height = Self.integer(object["height"]),
              let bandwidth = Self.integer(object["bandwidth"]), let averageBandwidth = Self.integer(object["averageBandwidth"]),
              let segmentCount = Self.integer(object["segmentCount"]),
              case .number(let frameRateText) = object["frameRate"], let frameRate = Double(frameRateText)
        else { return nil }
        var crf: Double?
        if case .number(let text) = object["crf"] { crf = Double(text) }
        var rateControl: RateControl?
        if case .string(let text) = object["rateControl"] { rateControl = RateControl(rawValue: text) }
        var videoRange: String?
        if case .string(let text) = object["videoRange"] { videoRange = text }
        self.init(name: name, width: width, height: height, bandwidth: bandwidth, averageBandwidth: averageBandwidth,
                  codecs: codecs, frameRate: frameRate, segmentCount: segmentCount, playlist: playlist,
                  rateControl: rateControl, crf: crf, videoRange: videoRange)
    }

    private static func integer(_ value: FlatJSONArray.Value?) -> Int? {
        guard case .number(let text) = value else { return nil }
        return Int(text)
    }
}
