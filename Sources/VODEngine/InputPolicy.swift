import Foundation

/// Which files the engine agrees to open, decided before FFmpeg reads anything.
///
/// Uploaded files are hostile until probed. FFmpeg can follow references out of a file: an HLS playlist, an
/// ffconcat script or an SDP description makes it open other files or URLs. Those are recognised by their
/// contents and refused here, and `InputFile` additionally allows only the `file` protocol and the demuxers in
/// `allowedFormats`, so nothing else is ever probed.
public enum InputPolicy {
    /// Demuxers for real media containers; none of them opens other files.
    public static let allowedFormats = [
        "mov", "matroska", "avi", "mpegts", "flv", "asf", "mpeg", "mxf", "ogg", "nut",
        "h264", "hevc", "m4v", "mpegvideo", "ivf", "dv", "yuv4mpegpipe",
        "wav", "mp3", "aac", "flac", "w64", "aiff",
    ]

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
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw MediaError.invalid("the file cannot be read")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw MediaError.refused("the input is not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw MediaError.invalid("the file cannot be read") }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        guard !head.isEmpty else { throw MediaError.invalid("the file is empty") }
        try screen(head: head)
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
    }

    /// Whether the bytes are printable text: no control bytes other than tab, newline and carriage return.
    private static func looksLikeText(_ bytes: Data) -> Bool {
        bytes.prefix(1024).allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || ($0 >= 32 && $0 != 127) }
    }
}
