/// What `Tests/Console/console.py` saw of the web console in Chromium, phase by phase; a phase that failed is
/// absent and its reason is in `errors`.
struct ConsoleReport: Decodable, Sendable {
    struct Headers: Decodable, Sendable {
        var status: Int
        var contentType: String?
        var csp: String?
        var nosniff: String?
        var cacheControl: String?
        var etag: String?
    }

    struct UploadRow: Decodable, Sendable {
        var name: String
        var state: String
        var value: Double
        var numbers: String
        var open: String?
    }

    struct Uploads: Decodable, Sendable {
        var rows: [UploadRow]
        /// Every value each file's progress bar took, by file name.
        var values: [String: [Double]]
        /// Every text the files' progress lines showed ("42 % of 426 kB · 285 kB/s · 1 s left").
        var numbers: [String]
    }

    struct Card: Decodable, Sendable {
        var title: String
        /// The link to the title's player page, `#/media/ID`.
        var href: String
        var rungs: String
        var duration: String
        var poster: Bool
    }

    struct Video: Decodable, Sendable {
        var currentTime: Double
        var videoWidth: Int
        var videoHeight: Int
        var paused: Bool
        var currentSrc: String
        var error: String?
    }

    struct Variant: Decodable, Sendable {
        var name: String
        var playlistUrl: String
        var width: Int
    }

    struct Playback: Decodable, Sendable {
        /// After three seconds of the master playlist.
        var video: Video
        /// The options of the quality menu.
        var quality: [String]
        var afterQuality: Video
        var variant: Variant
        var streamUrl: String
        var copied: String
        var embed: String
        var renamed: String
    }

    struct Audio: Decodable, Sendable {
        var options: [String]
        /// `enabled` of each of the video's audio tracks, before and after choosing the second in the menu.
        var before: [Bool]
        var after: [Bool]
        var selected: String
        var playback: Video
        /// Whether the quality menu was shown: a rung's playlist has no sound where the audio is a rendition.
        var qualityOffered: Bool
    }

    struct Resume: Decodable, Sendable {
        /// The offset of the chunk the network dropped.
        var dropped: String
        /// The upload's state after the drop.
        var interrupted: String
        /// Each state the upload showed after the page was reloaded and the same file picked again.
        var states: [String]
        var titles: [String]
        var duration: Int?
    }

    struct Deleted: Decodable, Sendable {
        var titles: [String]
        var apiStatus: Int
    }

    struct Width: Decodable, Sendable {
        var scroll: Int
        var client: Int
    }

    struct Phone: Decodable, Sendable {
        var library: Width
        var player: Width
    }

    struct NoNativeHLS: Decodable, Sendable {
        var note: String
        var link: String?
        var streamUrl: String
    }

    struct ServedFile: Decodable, Sendable {
        var url: String
        var hasKey: Bool
    }

    struct Key: Decodable, Sendable {
        var writesMeta: String?
        var uploadState: String?
        var titles: [String]?
        /// The reason the key dialog gave each time it opened.
        var prompts: [String]?
        var sessionKey: Bool?
        var keyInLocalStorage: Bool?
        var served: [ServedFile]?
    }

    struct PrivateTitle: Decodable, Sendable {
        struct Card: Decodable, Sendable {
            var visibility: String
            var poster: Bool
            var href: String
        }

        var anonymousTitles: [String]?
        var keyedTitles: [String]?
        var card: Card?
        var mediaId: Int?
        /// The status of the private title's stream asked for without a token.
        var withoutToken: Int?
        /// What the player script was given to play.
        var source: String?
        var streamUrl: String?
        var editVisibility: String?
        var playback: Video?
        /// The titles listed without a key once the title was made public again.
        var publishedTitles: [String]?
    }

    struct PlayerScript: Decodable, Sendable {
        struct Given: Decodable, Sendable {
            var source: String?
            var attached: Bool?
        }

        var given: Given
        var streamUrl: String
        var playback: Video
    }

    struct AxeViolation: Decodable, Sendable, CustomStringConvertible {
        var id: String
        var impact: String
        var nodes: [String]

        var description: String { "\(id) (\(impact)): \(nodes.joined(separator: ", "))" }
    }

    var errors: [String]
    var cspViolations: [String]
    var consoleErrors: [String]
    var pageErrors: [String]
    var headers: [String: Headers]
    var uploads: Uploads?
    /// Each status each card showed, in order, by title.
    var statuses: [String: [String]]?
    var notReloaded: Bool?
    var cards: [Card]?
    var searchTra: [String]?
    var filterFailed: Int?
    var playback: Playback?
    var audio: Audio?
    var deleted: Deleted?
    var phone: Phone?
    var noNativeHls: NoNativeHLS?
    var resume: Resume?
    var key: Key?
    var playerScript: PlayerScript?
    var privateTitle: PrivateTitle?
    /// The violations axe-core found, by page.
    var axe: [String: [AxeViolation]]?
}
