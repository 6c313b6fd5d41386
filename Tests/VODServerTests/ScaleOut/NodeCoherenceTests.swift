import Foundation
import Testing
import VODTestSupport

/// Two API nodes (`vod serve --workers 0`) on one PostgreSQL catalog and shared folders, with the same key,
/// signing secret and playback key: a signed write is taken once by the pair, and what one node changes, the
/// other stops serving within a second of the change, although it had served the title before.
@Suite(.serialized, .tags(.postgres, .processes), .needsExternalTools, .timeLimit(.minutes(5))) struct NodeCoherenceTests {
    static let key = "node-coherence-key-3e1f"
    static let secret = "node-coherence-secret-9b27"
    /// How soon a change on one node must show on the other.
    static let propagation = Duration.seconds(1)

    /// A cluster with two API nodes and a ready title whose files are on the shared folder.
    struct Nodes {
        let cluster: Cluster
        let first: ServerProcess
        let second: ServerProcess
        let id: Int64
        /// The arguments both nodes run with.
        let arguments: [String]

        init() async throws {
            cluster = try await Cluster()
            let folder = cluster.directory.url
            let keys = folder.appendingPathComponent("keys"), secret = folder.appendingPathComponent("secret")
            let playback = folder.appendingPathComponent("playback.key")
            try Data("\(NodeCoherenceTests.key)\n".utf8).write(to: keys)
            try Data("\(NodeCoherenceTests.secret)\n".utf8).write(to: secret)
            try Data("\(String(repeating: "5a", count: 32))\n".utf8).write(to: playback)
            arguments = ["--api-key-file", keys.path, "--api-secret-file", secret.path, "--playback-key-file", playback.path]
            id = try await cluster.library().addReady().id
            first = try await cluster.apiNode(arguments: arguments)
            second = try await cluster.apiNode(arguments: arguments)
        }

        func stop() async throws {
            #expect(try await first.stop(SIGTERM) == 0)
            #expect(try await second.stop(SIGTERM) == 0)
            cluster.close()
        }
    }

    @Test func aSignedWriteIsTakenOnceByEveryNodeEvenAfterARestart() async throws {
        let nodes = try await Nodes()
        let rename = try await SignedWrite(method: "PATCH", target: "/api/media/\(nodes.id)", body: #"{"title":"once"}"#)
        #expect(try await rename.send(to: nodes.first.url).status == 200)
        let replayed = try await rename.send(to: nodes.second.url)
        #expect(replayed.status == 401)
        #expect(replayed.body == #"{"error":"This signature has already been used"}"#)
        #expect(try await rename.send(to: nodes.first.url).status == 401, "and on the node that took it")

        #expect(try await nodes.first.stop(SIGTERM) == 0)
        let restarted = try await nodes.cluster.apiNode(arguments: nodes.arguments)
        #expect(try await rename.send(to: restarted.url).status == 401, "a restart forgets no signature")
        let fresh = try await SignedWrite(method: "PATCH", target: "/api/media/\(nodes.id)", body: #"{"title":"twice"}"#)
        #expect(try await fresh.send(to: restarted.url).status == 200, "another signature is taken")
        #expect(try await nodes.cluster.catalog.media(id: nodes.id)?.title == "twice")
        #expect(try await restarted.stop(SIGTERM) == 0)
        #expect(try await nodes.second.stop(SIGTERM) == 0)
        nodes.cluster.close()
    }

    @Test func aTitleDeletedOnOneNodeIsGoneFromTheOtherWithinASecond() async throws {
        let nodes = try await Nodes()
        let paths = ["/api/media/\(nodes.id)/stream", "/api/media/\(nodes.id)/stream/720p/index.m3u8",
                     "/api/media/\(nodes.id)/stream/720p/segment_000.ts"]
        for path in paths + paths {
            #expect(try await Self.status(nodes.second.url + path) == 200, "\(path) served, and cached, by the second node")
        }
        let delete = try await SignedWrite(method: "DELETE", target: "/api/media/\(nodes.id)", body: "")
        #expect(try await delete.send(to: nodes.first.url).status == 204)
        let deleted = ContinuousClock.now
        for path in paths {
            try await Self.waitFor(404, at: nodes.second.url + path, since: deleted)
        }
        try await nodes.stop()
    }

    @Test func aTitleMadePrivateOnOneNodeNeedsATokenOnTheOtherWithinASecond() async throws {
        let nodes = try await Nodes()
        let paths = ["/api/media/\(nodes.id)/stream", "/api/media/\(nodes.id)/stream/720p/segment_001.ts"]
        for path in paths + paths {
            #expect(try await Self.status(nodes.second.url + path) == 200, "\(path) served publicly by the second node")
        }
        let hide = try await SignedWrite(method: "PATCH", target: "/api/media/\(nodes.id)", body: #"{"visibility":"private"}"#)
        #expect(try await hide.send(to: nodes.first.url).status == 200)
        let hidden = ContinuousClock.now
        for path in paths {
            try await Self.waitFor(403, at: nodes.second.url + path, since: hidden)
        }
        let mint = try await SignedWrite(method: "POST", target: "/api/media/\(nodes.id)/playback-token", body: "{}")
        let minted = try await mint.send(to: nodes.first.url)
        #expect(minted.status == 201, "\(minted.body)")
        let grant = try #require(try JSONSerialization.jsonObject(with: Data(minted.body.utf8)) as? [String: Any])
        let token = try #require(grant["token"] as? String)
        for path in paths {
            #expect(try await Self.status(nodes.second.url + path + "?token=\(token)") == 200, "\(path) plays on the other node with the token")
        }
        try await nodes.stop()
    }

    @Test func aCaptionAddedOrRemovedOnOneNodeShowsInTheOthersMasterWithinASecond() async throws {
        let nodes = try await Nodes()
        let master = nodes.second.url + "/api/media/\(nodes.id)/stream"
        for _ in 0..<2 {
            #expect(try await !Self.body(master).contains("TYPE=SUBTITLES"), "the master, served and cached by the second node")
        }
        let boundary = "coherence-boundary"
        let form = [
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"language\"\r\n\r\nfr\r\n",
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"fr.vtt\"\r\nContent-Type: text/vtt\r\n\r\n",
            "WEBVTT\n\n00:00.000 --> 00:01.000\nBonjour\n\r\n--\(boundary)--\r\n",
        ].joined()
        let add = try await SignedWrite(method: "POST", target: "/api/media/\(nodes.id)/captions", body: form,
                                        contentType: "multipart/form-data; boundary=\(boundary)")
        let added = try await add.send(to: nodes.first.url)
        #expect(added.status == 201, "\(added.body)")
        let addedAt = ContinuousClock.now
        try await Self.waitFor(master, since: addedAt) { $0.contains("TYPE=SUBTITLES") && $0.contains("LANGUAGE=\"fr\"") }
        let caption = try #require(try JSONSerialization.jsonObject(with: Data(added.body.utf8)) as? [String: Any])
        let captionID = try #require(caption["id"] as? Int)
        let remove = try await SignedWrite(method: "DELETE", target: "/api/media/\(nodes.id)/captions/\(captionID)", body: "")
        #expect(try await remove.send(to: nodes.first.url).status == 204)
        let removedAt = ContinuousClock.now
        try await Self.waitFor(master, since: removedAt) { !$0.contains("TYPE=SUBTITLES") }
        try await nodes.stop()
    }

    /// The body `url` answers a GET without a key.
    static func body(_ url: String) async throws -> String {
        try await ExternalTool.require("curl", ["-s", url]).standardOutput
    }

    /// Waits until `url`'s body satisfies `condition`, and expects that within `propagation` of `change`.
    static func waitFor(_ url: String, since change: ContinuousClock.Instant, _ condition: @escaping @Sendable (String) -> Bool) async throws {
        try await waitUntil("\(url) shows the change", timeout: 10) { condition(try await body(url)) }
        let elapsed = ContinuousClock.now - change
        #expect(elapsed < propagation, "\(url) showed the change only \(elapsed) after it")
    }

    /// The status `url` answers a GET without a key.
    static func status(_ url: String) async throws -> Int {
        Int(try await ExternalTool.require("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url]).standardOutput) ?? 0
    }

    /// Waits until `url` answers `expected`, and expects that within `propagation` of `change`.
    static func waitFor(_ expected: Int, at url: String, since change: ContinuousClock.Instant) async throws {
        try await waitUntil("\(url) answers \(expected)", timeout: 10) { try await status(url) == expected }
        let elapsed = ContinuousClock.now - change
        #expect(elapsed < propagation, "\(url) answered \(expected) only \(elapsed) after the change")
    }
}

/// A write signed with the nodes' secret, sent with curl as a client would; the same bytes can be sent again.
struct SignedWrite {
    let method: String
    let target: String
    let body: String
    let contentType: String
    let timestamp = Int64(Date().timeIntervalSince1970)
    let signature: String

    init(method: String, target: String, body: String, contentType: String = "application/json") async throws {
        self.method = method
        self.target = target
        self.body = body
        self.contentType = contentType
        signature = try await Signer.sign(
            secret: NodeCoherenceTests.secret, method: method, target: target, body: Array(body.utf8), timestamp: timestamp
        )
    }

    /// Sends it to the node at `url`; returns its status and body.
    func send(to url: String) async throws -> (status: Int, body: String) {
        let output = try await ExternalTool.require("curl", [
            "-s", "-w", "\n%{http_code}", "-X", method, "-H", "X-API-Key: \(NodeCoherenceTests.key)",
            "-H", "X-Timestamp: \(timestamp)", "-H", "X-Signature: \(signature)", "-H", "Content-Type: \(contentType)",
            "--data-binary", body, url + target,
        ]).standardOutput
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}
