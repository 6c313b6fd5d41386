import CFFmpeg

/// Owns an `AVDictionary` of options handed to an FFmpeg call.
final class OptionDictionary {
    var pointer: OpaquePointer?

    init(_ options: [String: String]) {
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            av_dict_set(&pointer, key, value, 0)
        }
    }

    deinit { av_dict_free(&pointer) }
}
