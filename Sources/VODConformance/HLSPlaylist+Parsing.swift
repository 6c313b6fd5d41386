import Foundation

extension HLSPlaylist {
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Parses a playlist's bytes. Throws only when they are not UTF-8 text; anything else wrong is in ``issues``.
    public static func parse(_ data: Data) throws(ConformanceError) -> HLSPlaylist {
        var issues: [PlaylistIssue] = []
        var bytes = data
        if bytes.starts(with: byteOrderMark) {
            issues.append(PlaylistIssue(kind: .byteOrderMark, line: 1, message: "the playlist starts with a UTF-8 byte order mark"))
            bytes = bytes.dropFirst(byteOrderMark.count)
        }
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw .malformedPlaylist("the playlist is not UTF-8 text")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
        if lines.first != "#EXTM3U" {
            issues.append(PlaylistIssue(kind: .missingHeader, line: 1, message: "the first line is not #EXTM3U"))
        }
        let isMaster = lines.contains { $0.hasPrefix("#EXT-X-STREAM-INF") || $0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF") }
        if isMaster {
            var parser = MasterParser(issues: issues)
            parser.parse(lines)
            return .master(parser.playlist)
        }
        var parser = MediaParser(issues: issues)
        parser.parse(lines)
        return .media(parser.playlist)
    }

    /// Splits `#TAG:VALUE` into the tag and the value after the first colon.
    static func tag(_ line: Substring) -> (name: Substring, value: Substring?) {
        guard let colon = line.firstIndex(of: ":") else { return (line, nil) }
        return (line[..<colon], line[line.index(after: colon)...])
    }

    /// A decimal integer tag value, or nil.
    static func integer(_ value: Substring?) -> Int? {
        value.flatMap { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) ? Int($0) : nil }
    }
}

/// Reads the lines of a master playlist.
private struct MasterParser {
    var playlist = MasterPlaylist()

    init(issues: [PlaylistIssue]) {
        playlist.issues = issues
    }

    mutating func parse(_ lines: [Substring]) {
        var pending: (attributes: AttributeList, line: Int)?
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let number = index + 1
            if !line.hasPrefix("#") {
                if let variant = pending {
                    playlist.variants.append(VariantStream(attributes: variant.attributes, uri: String(line), line: variant.line))
                    pending = nil
                } else {
                    problem(number, "URI line \"\(line)\" follows no #EXT-X-STREAM-INF")
                }
                continue
            }
            let (name, value) = HLSPlaylist.tag(line)
            if pending != nil && name.hasPrefix("#EXT") {
                problem(pending?.line ?? number, "#EXT-X-STREAM-INF is not followed by a URI line")
                pending = nil
            }
            switch name {
            case "#EXT-X-VERSION":
                playlist.version = HLSPlaylist.integer(value)
                if playlist.version == nil { problem(number, "#EXT-X-VERSION is not an integer") }
            case "#EXT-X-INDEPENDENT-SEGMENTS":
                playlist.independentSegments = true
            case "#EXT-X-STREAM-INF":
                pending = (attributes(value, number), number)
            case "#EXT-X-I-FRAME-STREAM-INF":
                let list = attributes(value, number)
                playlist.iFrameStreams.append(VariantStream(attributes: list, uri: list["URI"], line: number))
            case "#EXT-X-MEDIA":
                let (list, problems) = AttributeList.parse(value ?? "")
                for message in problems { problem(number, message) }
                playlist.renditions.append(MediaRendition(attributes: list, line: number))
            default:
                break
            }
        }
        if let variant = pending { problem(variant.line, "#EXT-X-STREAM-INF is not followed by a URI line") }
    }

    private mutating func attributes(_ value: Substring?, _ number: Int) -> AttributeList {
        let (list, problems) = AttributeList.parse(value ?? "")
        for message in problems { problem(number, message) }
        let variant = VariantStream(attributes: list, uri: nil, line: number)
        let malformed = [
            ("BANDWIDTH", variant.bandwidth != nil), ("AVERAGE-BANDWIDTH", variant.averageBandwidth != nil),
            ("RESOLUTION", variant.resolution != nil), ("FRAME-RATE", variant.frameRate != nil),
            ("CODECS", variant.codecs?.contains(where: \.isEmpty) == false),
        ].filter { name, valid in list[name] != nil && !valid }
        for (name, _) in malformed { problem(number, "\(name) value \"\(list[name] ?? "")\" is malformed") }
        return list
    }

    private mutating func problem(_ line: Int, _ message: String) {
        playlist.issues.append(PlaylistIssue(kind: .syntax, line: line, message: message))
    }
}

/// Reads the lines of a media playlist.
private struct MediaParser {
    var playlist = MediaPlaylist()
    private var duration: (value: Double, text: String)?
    private var range: (length: Int, offset: Int?)?
    private var rangeEnds: [String: Int] = [:]

    init(issues: [PlaylistIssue]) {
        playlist.issues = issues
    }

    mutating func parse(_ lines: [Substring]) {
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let number = index + 1
            if line.hasPrefix("#") {
                tag(line, number)
            } else {
                segment(uri: String(line), number)
            }
        }
        if duration != nil { problem(lines.count, "#EXTINF is not followed by a URI line") }
    }

    private mutating func tag(_ line: Substring, _ number: Int) {
        let (name, value) = HLSPlaylist.tag(line)
        switch name {
        case "#EXT-X-VERSION":
            playlist.version = HLSPlaylist.integer(value)
            if playlist.version == nil { problem(number, "#EXT-X-VERSION is not an integer") }
        case "#EXT-X-TARGETDURATION":
            playlist.targetDurationText = value.map(String.init) ?? ""
        case "#EXT-X-PLAYLIST-TYPE":
            playlist.playlistType = value.map(String.init) ?? ""
        case "#EXT-X-MEDIA-SEQUENCE":
            playlist.mediaSequence = HLSPlaylist.integer(value)
            if playlist.mediaSequence == nil { problem(number, "#EXT-X-MEDIA-SEQUENCE is not an integer") }
        case "#EXT-X-ENDLIST":
            playlist.endListCount += 1
        case "#EXT-X-I-FRAMES-ONLY":
            playlist.iFramesOnly = true
        case "#EXT-X-MAP":
            let (list, problems) = AttributeList.parse(value ?? "")
            for message in problems { problem(number, message) }
            playlist.mapURI = list["URI"]
            if list["URI"] == nil { problem(number, "#EXT-X-MAP has no URI") }
        case "#EXTINF":
            extinf(value ?? "", number)
        case "#EXT-X-BYTERANGE":
            byteRange(value ?? "", number)
        default:
            break
        }
    }

    private mutating func extinf(_ value: Substring, _ number: Int) {
        let text = String(value.prefix { $0 != "," })
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, text.first?.isNumber == true else {
            problem(number, "#EXTINF duration \"\(text)\" is not a non-negative decimal number")
            duration = nil
            return
        }
        duration = (seconds, text)
    }

    private mutating func byteRange(_ value: Substring, _ number: Int) {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, let length = HLSPlaylist.integer(parts.first) else {
            problem(number, "#EXT-X-BYTERANGE \"\(value)\" is not length[@offset]")
            range = nil
            return
        }
        let offset = parts.count == 2 ? HLSPlaylist.integer(parts[1]) : nil
        if parts.count == 2 && offset == nil {
            problem(number, "#EXT-X-BYTERANGE offset \"\(parts[1])\" is not an integer")
            range = nil
            return
        }
        range = (length, offset)
    }

    private mutating func segment(uri: String, _ number: Int) {
        defer {
            duration = nil
            range = nil
        }
        guard let duration else {
            problem(number, "URI line \"\(uri)\" has no valid #EXTINF before it")
            return
        }
        var resolved: ByteRange?
        if let range {
            guard let offset = range.offset ?? rangeEnds[uri] else {
                problem(number, "#EXT-X-BYTERANGE without an offset does not follow a range of the same resource")
                return
            }
            let (end, overflow) = offset.addingReportingOverflow(range.length)
            guard !overflow else {
                problem(number, "#EXT-X-BYTERANGE is too large")
                return
            }
            resolved = ByteRange(length: range.length, offset: offset)
            rangeEnds[uri] = end
        }
        playlist.segments.append(MediaSegment(duration: duration.value, durationText: duration.text, uri: uri, byteRange: resolved, line: number))
    }

    private mutating func problem(_ line: Int, _ message: String) {
        playlist.issues.append(PlaylistIssue(kind: .syntax, line: line, message: message))
    }
}
