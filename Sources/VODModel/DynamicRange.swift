/// How a source encodes brightness beyond SDR, detected from its transfer characteristic and side data.
public enum DynamicRange: String, Sendable, Codable, Equatable {
    /// SMPTE ST 2084 (HDR10, HDR10+).
    case pq
    /// ARIB STD-B67 hybrid log-gamma.
    case hlg
    /// Dolby Vision; its base layer is what is decoded and tone-mapped.
    case dolbyVision = "dolby-vision"
}
