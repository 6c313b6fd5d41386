import Foundation

/// The state of one conformance check: the title's folder, the violations so far and the measurements.
struct ConformanceRun {
    let root: URL
    let options: ConformanceOptions
    private(set) var violations: [Violation] = []
    var measurements = TitleMeasurements()
    /// The first PTS seen, to which every segment's timestamps are unwrapped.
    var timelineReference: Int64?

    init(root: URL, options: ConformanceOptions) {
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
        self.options = options
    }

    mutating func flag(_ rule: ConformanceRule, _ file: String, _ message: String) {
        violations.append(Violation(rule: rule, file: file, message: message))
    }

    /// The path of `url` relative to the title's folder.
    func relative(_ url: URL) -> String {
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        let base = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// Resolves a playlist URI (RFC 3986) against the URL of the playlist it appears in; flags URIs that are not
    /// files inside the title's folder.
    mutating func resolve(_ uri: String?, from playlist: URL) -> URL? {
        let file = relative(playlist)
        guard let uri, !uri.isEmpty else {
            flag(.playlistURI, file, "a URI is missing")
            return nil
        }
        guard let url = URL(string: uri, relativeTo: playlist)?.absoluteURL, url.isFileURL else {
            flag(.playlistURI, file, "URI \"\(uri)\" is not a relative reference to a local file")
            return nil
        }
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath()
        let base = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard resolved.path.hasPrefix(base) else {
            flag(.playlistURI, file, "URI \"\(uri)\" resolves outside the title's folder")
            return nil
        }
        return resolved
    }

    /// The bytes of a file, or of a byte range of it; flags files that cannot be read.
    mutating func read(_ url: URL, range: ByteRange?, from playlist: URL) -> [UInt8]? {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            guard let range else { return [UInt8](try handle.readToEnd() ?? Data()) }
            try handle.seek(toOffset: UInt64(range.offset))
            let data = try handle.read(upToCount: range.length) ?? Data()
            guard data.count == range.length else {
                flag(.playlistURI, relative(playlist), "byte range \(range.length)@\(range.offset) runs past the end of \(relative(url))")
                return nil
            }
            return [UInt8](data)
        } catch {
            flag(.playlistURI, relative(playlist), "cannot read \(relative(url)): \(error.localizedDescription)")
            return nil
        }
    }

    /// Loads and parses a playlist, flagging encoding, header and syntax problems.
    mutating func loadPlaylist(_ url: URL, from parent: URL?) -> HLSPlaylist? {
        let file = relative(url)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            flag(.playlistURI, parent.map(relative) ?? file, "cannot read playlist \(file): \(error.localizedDescription)")
            return nil
        }
        do {
            let playlist = try HLSPlaylist.parse(data)
            for issue in playlist.issues {
                switch issue.kind {
                case .byteOrderMark: flag(.playlistEncoding, file, issue.message)
                case .missingHeader: flag(.playlistHeader, file, issue.message)
                case .syntax: flag(.playlistSyntax, file, "line \(issue.line): \(issue.message)")
                }
            }
            return playlist
        } catch {
            flag(.playlistEncoding, file, error.description)
            return nil
        }
    }

    /// Loads a playlist that must be a media playlist.
    mutating func loadMediaPlaylist(_ url: URL, from parent: URL) -> MediaPlaylist? {
        switch loadPlaylist(url, from: parent) {
        case .media(let media):
            return media
        case .master:
            flag(.playlistSyntax, relative(parent), "\(relative(url)) is a master playlist, not a media playlist")
            return nil
        case nil:
            return nil
        }
    }
}
