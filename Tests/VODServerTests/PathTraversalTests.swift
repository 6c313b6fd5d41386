import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODServer
import VODTestSupport

/// Path traversal against every stream route, over real HTTP, so that whatever the router decodes or
/// normalises is part of the test: nothing outside the item's own output folder is ever served.
@Suite(.timeLimit(.minutes(10))) struct PathTraversalTests {
    /// Spellings of `../`: plain, percent-encoded in every combination, double-encoded, encoded backslashes
    /// and overlong UTF-8. (Raw backslashes, which HTTP clients refuse to send, are in `rawRequestTargetsAreRefused`.)
    static let upSpellings = [
        "../", "..%2f", "..%2F", "%2e%2e/", "%2e%2e%2f", "%2E%2E%2F", ".%2e/", "%2e./", "%252e%252e%252f", "..%252f",
        "..%5c", "..%5C", "%2e%2e%5c", "%252e%252e%255c", "%c0%ae%c0%ae/", "..%c0%af", "....//", "..;/",
    ]

    /// What an attacker would want: the catalog, another item's segment, a system file.
    static func targets(otherItem: Int64) -> [String] {
        ["media/vod.sqlite", "hls_output/\(otherItem)/720p/segment_000.ts", "etc/passwd", "hls_output/\(otherItem)/master.m3u8"]
    }

    /// Every traversal of item `id`'s stream toward the targets, from the stream root and from a rung folder,
    /// one to six levels up, plus absolute paths, NUL bytes, overlong and planted-symlink paths.
    static func attempts(id: Int64, otherItem: Int64) -> [String] {
        var paths: [String] = []
        for up in upSpellings {
            for depth in 1...6 {
                for target in targets(otherItem: otherItem) {
                    let encodedTarget = target.replacingOccurrences(of: "/", with: up.contains("%2") ? "%2f" : "/")
                    paths.append(String(repeating: up, count: depth) + encodedTarget)
                    paths.append("720p/" + String(repeating: up, count: depth) + encodedTarget)
                }
            }
        }
        paths += [
            "/etc/passwd", "//etc/passwd", "%2fetc%2fpasswd", "720p/%2Fetc%2Fpasswd", "720p//etc/passwd", "%5Cetc%5Cpasswd",
            "720p/%5Cetc%5Cpasswd", "%252fetc%252fpasswd", "file:%2f%2f%2fetc%2fpasswd", "~root/.profile",
            "720p/index.m3u8%00", "720p/index.m3u8%00.ts", "720p/segment_000.ts%00.m3u8", "%00/../../media/vod.sqlite",
            "720p/escape.ts", "720p/escape-dir/x.ts", "linked-rung/segment_000.ts", "linked-rung/index.m3u8",
            "absolute-rung/passwd", "720p/.hidden.ts", ".hidden-dir/secret.ts", "720p/notes.txt", "a/b/c/d.ts",
            String(repeating: "a", count: 4096) + ".ts", String(repeating: "a/", count: 300) + "x.ts",
            String(repeating: "./", count: 200) + "master.m3u8", "720p/./segment_000.ts",
        ]
        return paths.map { "/api/media/\(id)/stream/\($0)" } + [
            "/api/media/\(id)/stream/../\(otherItem)/stream", "/api/media/..%2f\(otherItem)/stream",
            "/api/media/\(id)%2f..%2f\(otherItem)/stream", "/api/media/%2e%2e/stream/720p/index.m3u8",
        ]
    }

    /// Bytes that must never come back: the catalog's SQLite header, the other item's marked segment,
    /// /etc/passwd and the files planted in and around the item's folder.
    static let forbidden = ["SQLite format 3", "OTHER-ITEM-SEGMENT", "root:", "PLANTED-SECRET"]

    @Test func everyTraversalOfEveryStreamRouteIsRefused() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let other = try await test.addReady(title: "other")
        try Traps.plant(test, item: item.id, other: other.id)
        let attempts = Self.attempts(id: item.id, otherItem: other.id)
        #expect(attempts.count >= 800)
        try await test.app().test(.live) { client in
            for uri in attempts {
                for method in [HTTPRequest.Method.get, .head] {
                    let response = try await client.execute(uri: uri, method: method)
                    #expect([400, 404].contains(response.status.code), "\(method) \(uri) gave \(response.status)")
                    #expect(response.headers[.accessControlAllowOrigin] == "*", "\(uri)")
                    guard method == .get else { continue }
                    let json = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                    #expect(json?["error"] != nil, "\(uri): \(response.body.text.prefix(200))")
                    for secret in Self.forbidden {
                        #expect(!response.body.text.contains(secret), "\(uri) leaked \(secret)")
                    }
                }
            }
            let legitimate = try await client.execute(uri: "/api/media/\(item.id)/stream/720p/segment_000.ts", method: .get)
            #expect(Array(legitimate.body.readableBytesView) == TestLibrary.segmentBytes, "the item's own files are still served")
        }
    }

    /// Bytes that HTTP client libraries refuse to put in a request line: raw NUL, raw backslashes, spaces,
    /// a request target that is not a path, and a path longer than the request head limit.
    @Test(.tags(.processes), .needsExternalTools, arguments: [
        "/api/media/1/stream/720p/index.m3u8\u{0}.ts", "/api/media/1/stream/..\\..\\..\\media\\vod.sqlite",
        "/api/media/1/stream/../../../../etc/passwd", "/api/media/1/stream/720p/../../2/720p/segment_000.ts",
        "http://127.0.0.1/api/media/1/stream/..%2f..%2f..%2fmedia%2fvod.sqlite", "*",
        "/api/media/1/stream/" + String(repeating: "%2e%2e%2f", count: 5000) + "etc/passwd",
    ])
    func rawRequestTargetsAreRefused(_ target: String) async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let other = try await test.addReady(title: "other")
        try Traps.plant(test, item: item.id, other: other.id)
        try await test.app().test(.live) { client in
            let outcome = try await RawHTTP(port: try #require(client.port))
                .send(Array(RawHTTP.head("GET", target, ["Connection: close"])))
            #expect([400, 404].contains(outcome.status ?? 0), "\(target.prefix(80)): \(String(describing: outcome.status))")
            for secret in Self.forbidden { #expect(!outcome.body.contains(secret)) }
        }
    }
}

/// What an attacker with write access to an output folder (or a buggy tool) might leave: links to the
/// catalog and to another folder, a linked rung folder, hidden files and other types, and marked files in
/// another item's folder.
enum Traps {
    static func plant(_ test: TestLibrary, item: Int64, other: Int64) throws {
        let files = FileManager.default
        let folder = test.library.outputFolder(for: item)
        let otherFolder = test.library.outputFolder(for: other)
        try Data("OTHER-ITEM-SEGMENT".utf8).write(to: URL(fileURLWithPath: "\(otherFolder)/720p/segment_000.ts"))
        try Data("#EXTM3U\n#OTHER-ITEM-SEGMENT\n".utf8).write(to: URL(fileURLWithPath: "\(otherFolder)/master.m3u8"))
        try files.createSymbolicLink(atPath: "\(folder)/720p/escape.ts", withDestinationPath: test.databasePath)
        try files.createSymbolicLink(atPath: "\(folder)/720p/escape-dir", withDestinationPath: test.mediaDirectory)
        try files.createSymbolicLink(atPath: "\(folder)/linked-rung", withDestinationPath: "\(otherFolder)/720p")
        try files.createSymbolicLink(atPath: "\(folder)/absolute-rung", withDestinationPath: "/etc")
        try files.createDirectory(atPath: "\(folder)/.hidden-dir", withIntermediateDirectories: true)
        for path in ["\(test.mediaDirectory)/x.ts", "\(folder)/720p/.hidden.ts", "\(folder)/720p/notes.txt", "\(folder)/.hidden-dir/secret.ts"] {
            files.createFile(atPath: path, contents: Data("PLANTED-SECRET".utf8))
        }
    }
}
