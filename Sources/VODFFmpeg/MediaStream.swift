import CFFmpeg

/// One demuxed stream of an `InputFile`: a view into the file, which it keeps open as long as it is held.
public struct MediaStream: @unchecked Sendable, Hashable {
    /// The stream, owned and freed by its `InputFile`.
    let pointer: UnsafeMutablePointer<AVStream>
    /// The bounds of the file it comes from, which its decoders get.
    let limits: DecodeLimits
    /// The file that owns the stream, kept alive by this view.
    private let file: InputFile

    init(_ pointer: UnsafeMutablePointer<AVStream>, of file: InputFile) {
        self.pointer = pointer
        limits = file.limits
        self.file = file
    }

    /// Two views are equal when they are of the same stream.
    public static func == (lhs: MediaStream, rhs: MediaStream) -> Bool { lhs.pointer == rhs.pointer }

    public func hash(into hasher: inout Hasher) { hasher.combine(pointer) }

    /// The stream's index in its file, as packets name it.
    public var index: Int32 { pointer.pointee.index }

    /// The time base of the stream's packet timestamps.
    public var timeBase: Rational { Rational(pointer.pointee.time_base) }

    /// The stream's average frame rate, as the container declares it.
    public var averageFrameRate: Rational { Rational(pointer.pointee.avg_frame_rate) }

    /// FFmpeg's guess of the stream's real base frame rate, from its timestamps.
    public var baseFrameRate: Rational { Rational(pointer.pointee.r_frame_rate) }

    /// Whether the stream is cover art: one attached picture, not a video.
    public var isAttachedPicture: Bool { has(AV_DISPOSITION_ATTACHED_PIC) }
    /// Whether the container marks the stream as the default of its kind.
    public var isDefault: Bool { has(AV_DISPOSITION_DEFAULT) }
    /// Whether the container marks the stream as forced (subtitles shown whatever the viewer chose).
    public var isForced: Bool { has(AV_DISPOSITION_FORCED) }
    /// Whether the container marks the stream as made for the visually impaired (audio description).
    public var isForVisuallyImpaired: Bool { has(AV_DISPOSITION_VISUAL_IMPAIRED) }

    /// A metadata entry of the stream, such as its `title`.
    public func metadata(_ key: String) -> String? {
        guard let entry = av_dict_get(pointer.pointee.metadata, key, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return String(cString: value)
    }

    /// The stream's ISO 639-2 language code, such as `fre`, when the container gives one other than `und`.
    public var language: String? {
        guard let code = metadata("language")?.lowercased() else { return nil }
        return code.isEmpty || code == "und" ? nil : code
    }

    private func has(_ disposition: Int32) -> Bool { pointer.pointee.disposition & disposition != 0 }
}
