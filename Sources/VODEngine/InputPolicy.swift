import Foundation

/// Which files the engine agrees to open, decided before FFmpeg reads anything.
///
/// Uploaded files are hostile until probed. FFmpeg can follow references out of a file: an HLS playlist, an
/// ffconcat script or an SDP description makes it open other files or URLs. Those are recognised by their
/// contents and refused here, and `InputFile` additionally allows only the `file` protocol and the demuxers in
/// `allowedFormats`, so nothing else is ever probed.
public enum InputPolicy {
    /// Demuxers for real media containers and animated images; none of them opens other files.
    public static let allowedFormats = [
        "mov", "matroska", "avi", "mpegts", "flv", "asf", "mpeg", "mxf", "ogg", "nut",
        "h264", "hevc", "m4v", "mpegvideo", "ivf", "dv", "yuv4mpegpipe",
        "gif", "apng",
        "wav", "mp3", "aac", "flac", "w64", "aiff", "ac3", "eac3", "dts",
    ]

    /// The demuxers of raw elementary streams (H.264, HEVC, MPEG-2 and MPEG-4 video with no container), whose
    /// pictures carry no timestamps.
    static let elementaryStreamFormats: Set = ["h264", "hevc", "mpegvideo", "m4v"]

    /// The longest side of a picture the engine decodes: 8K. FFmpeg accepts up to 16383, and a header that lies
    /// about its size would make every decoded frame hundreds of megabytes.
    public static let maximumSide = 8192
    /// The most pixels in a picture the engine decodes: 8192 × 4320.
    public static let maximumPixels = 8192 * 4320
    /// The longest duration a file may claim, in seconds: 24 hours. Longer claims are lying headers.
    public static let maximumDuration: Double = 24 * 3600

    private static let disguises: [(prefix: String, kind: String)] = [
        ("#EXTM3U", "an HLS playlist"),
        ("#EXT-X-", "an HLS playlist"),
        ("ffconcat", "an ffconcat script"),
        ("v=0", "an SDP session description"),
        ("<?xml", "an XML document (such as a DASH manifest)"),
        ("<MPD", "a DASH manifest"),
        ("[playlist]", "a PLS playlist"),
        ("#EXTINF", "an M3U playlist"),
    ]

    /// Throws `MediaError.refused` when `path` is not a regular, non-empty file, or when its contents are a
    /// playlist, script or other text rather than media.
    public static func screen(path: String) throws {
        // lstat, not FileManager.attributesOfItem, which would read /etc/passwd and /etc/group for the owner.
        var status = stat()
        guard lstat(path, &status) == 0 else { throw MediaError.invalid("the file cannot be read") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw MediaError.refused("the input is not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw MediaError.invalid("the file cannot be read") }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        guard !head.isEmpty else { throw MediaError.invalid("the file is empty") }
        try screen(head: head)
    }

    /// Throws `MediaError.invalid` when a probed file claims a picture or a duration beyond the limits above.
    public static func checkLimits(of probe: MediaProbe) throws {
        if let video = probe.video { try checkPicture(width: video.width, height: video.height) }
        if let duration = probe.duration, duration > maximumDuration {
            throw MediaError.invalid(
                "the file claims to last \(Int(duration / 3600)) hours, more than the \(Int(maximumDuration / 3600))-hour limit")
        }
    }

    /// Throws `MediaError.invalid` for a picture larger than `maximumSide` or `maximumPixels`.
    static func checkPicture(width: Int, height: Int) throws {
        guard max(width, height) <= maximumSide, width * height <= maximumPixels else {
            throw MediaError.invalid(
                "the video claims \(width)×\(height) pixels, more than the 8192×4320 this service transcodes")
        }
    }

    /// Refuses a file whose first bytes are a known text format that references other files, or any text.
    static func screen(head: Data) throws {
        var body = head
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let text = String(decoding: body.prefix(64), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for disguise in disguises where text.lowercased().hasPrefix(disguise.prefix.lowercased()) {
            throw MediaError.refused("the file is \(disguise.kind), not a media file; it was not opened")
        }
        if looksLikeText(body) {
            throw MediaError.refused("the file is text, not a media file")
        }
        if let image = stillImageKind(head) {
            throw MediaError.refused(image)
        }
    }

    /// Why an image format this service does not make into video is refused, from its signature; nil for others.
    /// A WebP's `VP8X` header says whether it is animated: the FFmpeg 5.1 here decodes only still WebP.
    static func stillImageKind(_ head: Data) -> String? {
        let bytes = Array(head.prefix(32))
        if bytes.count >= 21, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x45, 0x42, 0x50] {
            let isAnimated = bytes[12..<16] == [0x56, 0x50, 0x38, 0x58] && bytes[20] & 0x02 != 0
            return isAnimated
                ? "the file is an animated WebP, which the FFmpeg 5.1 this service runs on cannot decode; upload it as a GIF, an APNG or a video"
                : "the file is a still WebP image, not a video"
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "the file is a JPEG image, or a raw Motion-JPEG stream, which this service does not take: upload a video" }
        return nil
    }

    /// Whether the bytes are printable text: no control bytes other than tab, newline and carriage return.
    private static func looksLikeText(_ bytes: Data) -> Bool {
        bytes.prefix(1024).allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || ($0 >= 32 && $0 != 127) }
    }
}
