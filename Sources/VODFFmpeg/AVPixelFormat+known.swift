import CFFmpeg

/// The pixel formats the pipeline names.
extension AVPixelFormat {
    /// Planar YUV 4:2:0, 8 bits, limited range: what the H.264 rungs encode.
    public static let yuv420p = AV_PIX_FMT_YUV420P
    /// Planar YUV 4:2:0, 8 bits, full range: what JPEG stills encode.
    public static let yuvj420p = AV_PIX_FMT_YUVJ420P
    /// Planar YUV 4:2:0, 10 bits in 16-bit little-endian samples: what the HDR rungs encode.
    public static let yuv420p10le = AV_PIX_FMT_YUV420P10LE
}
