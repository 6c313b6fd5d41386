import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// Public reads, writes behind `X-API-Key` and HMAC signatures, replays refused, secrets never logged.
@Suite(.tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct WriteProtectionTests {
    static let keys = ["k1-7f3a9c0e5b2d4f61", "k2-rotated-e8d1c2b3a4f5"]
    static let secret = "s3cr3t-signing-9b8a7c6d"

    /// A key file with a comment, blank lines and stray whitespace around two keys.
    static func keyFile(in directory: TemporaryDirectory) throws -> String {
        let path = directory.url.appendingPathComponent("keys").path
        try Data("# rotated on Monday\n\n  \(keys[0])  \n\(keys[1])\r\n\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func keyFilesHoldOneKeyALine() throws {
        let directory = try TemporaryDirectory()
        #expect(try WriteProtection.keys(inFile: try Self.keyFile(in: directory)) == Self.keys)
        #expect(throws: WriteProtectionFileError.self) { try WriteProtection.keys(inFile: "\(directory.url.path)/missing") }
        let empty = directory.url.appendingPathComponent("empty").path
        try Data("# nothing yet\n".utf8).write(to: URL(fileURLWithPath: empty))
        #expect(throws: WriteProtectionFileError.self) { try WriteProtection.secret(inFile: empty) }
        #expect(throws: WriteProtectionFileError.self, "an empty key file does not silently open writes") {
            try WriteProtection.keys(inFile: empty)
        }
    }

    @Test func readsArePublicAndWritesNeedOneOfTheKeys() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let failed = try await test.addPending(title: "broken")
        let job = try #require(try await test.catalog.claimNextJob(worker: "test", lease: .seconds(60)))
        _ = try await test.catalog.markFailed(job, reason: "x")
        let keys = try WriteProtection.keys(inFile: try Self.keyFile(in: test.directory))
        try await test.app { $0.writeProtection = WriteProtection(keys: keys) }.test(.live) { client in
            for uri in ["/health", "/api/media", "/api/media/\(item.id)", "/api/media/\(item.id)/captions", "/api/media/\(item.id)/stream", "/api/media/\(item.id)/stream/720p/index.m3u8", "/api/media/\(item.id)/stream/720p/segment_000.ts"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok, "\(uri) is public")
                if uri.contains("/stream") { #expect(try await client.execute(uri: uri, method: .head).status == .ok) }
            }
            let preflight = try await client.execute(
                uri: "/api/media", method: .options, headers: [.accessControlRequestMethod: "POST"]
            )
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("X-API-Key") == true)

            let writes: [(HTTPRequest.Method, String, String)] = [
                (.patch, "/api/media/\(item.id)", #"{"title":"changed"}"#), (.post, "/api/media/\(failed.id)/retry", ""),
                (.delete, "/api/media/\(item.id)", ""), (.post, "/api/media?title=x", "not a video"),
                (.post, "/api/media/\(item.id)/captions", "WEBVTT"), (.delete, "/api/media/\(item.id)/captions/1", ""),
                (.get, "/api/workers", ""),
            ]
            for key in [nil, "", "wrong", Self.keys[0].uppercased(), String(Self.keys[0].dropLast()), Self.keys[0] + "x"] {
                for (method, uri, body) in writes {
                    var headers: HTTPFields = [.contentType: method == .patch ? "application/json" : "video/mp4"]
                    if let key { headers[.apiKey] = key }
                    let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body))
                    #expect(response.status == .unauthorized, "\(method) \(uri) with \(key ?? "no key")")
                    #expect(response.body.text == #"{"error":"Missing or invalid X-API-Key"}"#)
                    #expect(response.headers[.accessControlAllowOrigin] == "*")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                }
            }
            #expect(try test.storedMedia().isEmpty)
            #expect(try await test.catalog.media(id: item.id)?.title == item.title, "nothing changed")

            let patched = try await client.execute(
                uri: "/api/media/\(item.id)", method: .patch, headers: [.apiKey: Self.keys[0], .contentType: "application/json"],
                body: ByteBuffer(string: #"{"title":"changed"}"#)
            )
            #expect(patched.status == .ok)
            let retried = try await client.execute(uri: "/api/media/\(failed.id)/retry", method: .post, headers: [.apiKey: Self.keys[1]])
            #expect(retried.status == .ok, "the rotated key works too")
            let upload = try await client.execute(
                uri: "/api/media?title=x", method: .post, headers: [.apiKey: Self.keys[1], .contentType: "video/mp4"],
                body: ByteBuffer(string: "not a video")
            )
            #expect(upload.status == .unprocessableContent, "past the key check, refused by probing")
            let deleted = try await client.execute(uri: "/api/media/\(item.id)", method: .delete, headers: [.apiKey: Self.keys[1]])
            #expect(deleted.status == .noContent)
        }
    }

    @Test func signedWritesMustCarryAFreshUnusedMatchingSignature() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app { $0.writeProtection = WriteProtection(keys: [Self.keys[0]], secret: Self.secret) }.test(.live) { client in
            let uri = "/api/media/\(item.id)?via=test"
            func patch(_ body: String, timestamp: Int64, signature: String?, key: String = Self.keys[0]) async throws -> TestResponse {
                var headers: HTTPFields = [.apiKey: key, .contentType: "application/json", .timestamp: "\(timestamp)"]
                if let signature { headers[.signature] = signature }
                return try await client.execute(uri: uri, method: .patch, headers: headers, body: ByteBuffer(string: body))
            }
            /// Signed correctly with a timestamp this far from the clock at the time of sending.
            func signedPatch(_ body: String, secondsFromNow: Int64) async throws -> TestResponse {
                let timestamp = Int64(Date().timeIntervalSince1970) + secondsFromNow
                let signature = try await Signer.sign(secret: Self.secret, method: "PATCH", target: uri, body: Array(body.utf8), timestamp: timestamp)
                return try await patch(body, timestamp: timestamp, signature: signature)
            }
            let now = Int64(Date().timeIntervalSince1970)
            let body = #"{"title":"signed"}"#
            let good = try await Signer.sign(secret: Self.secret, method: "PATCH", target: uri, body: Array(body.utf8), timestamp: now)

            let refusals: [(String, TestResponse)] = [
                ("no signature", try await patch(body, timestamp: now, signature: nil)),
                ("another secret", try await patch(body, timestamp: now, signature: try Signer.sign(secret: "other", method: "PATCH", target: uri, body: Array(body.utf8), timestamp: now))),
                ("another body", try await patch(#"{"title":"forged"}"#, timestamp: now, signature: good)),
                ("another timestamp", try await patch(body, timestamp: now + 1, signature: good)),
                ("another target", try await client.execute(uri: "/api/media/\(item.id)", method: .patch, headers: [.apiKey: Self.keys[0], .timestamp: "\(now)", .signature: good], body: ByteBuffer(string: body))),
                ("not hex", try await patch(body, timestamp: now, signature: String(repeating: "z", count: 64))),
                ("too short", try await patch(body, timestamp: now, signature: String(good.dropLast(2)))),
                ("stale", try await signedPatch(body, secondsFromNow: -301)),
                ("from the future", try await signedPatch(body, secondsFromNow: 330)),
                ("right signature, wrong key", try await patch(body, timestamp: now, signature: good, key: "wrong")),
            ]
            for (name, response) in refusals {
                #expect(response.status == .unauthorized, "\(name)")
                #expect(response.body.text.hasPrefix(#"{"error":""#), "\(name)")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
            }
            #expect(try await test.catalog.media(id: item.id)?.title == item.title, "no refused write changed anything")

            let accepted = try await patch(body, timestamp: now, signature: good.uppercased())
            #expect(accepted.status == .ok)
            #expect(try await test.catalog.media(id: item.id)?.title == "signed")
            let replay = try await patch(body, timestamp: now, signature: good)
            #expect(replay.status == .unauthorized)
            #expect(replay.body.text == #"{"error":"This signature has already been used"}"#)

            let oldButValid = try await signedPatch(body, secondsFromNow: -290)
            #expect(oldButValid.status == .ok, "within the window")
            let deleteTarget = "/api/media/\(item.id)"
            let deleted = try await client.execute(
                uri: deleteTarget, method: .delete,
                headers: [.apiKey: Self.keys[0], .timestamp: "\(now)", .signature: try Signer.sign(secret: Self.secret, method: "DELETE", target: deleteTarget, body: [], timestamp: now)]
            )
            #expect(deleted.status == .noContent, "a write without a body signs an empty body")
        }
    }

    @Test func signedUploadsAreCheckedAsTheyStreamAndKeptOnlyWhenTheyMatch() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 160, height: 120, duration: 1).make(in: test.directory.url)
        let (contentType, body) = UploadTests.multipart(file: try Data(contentsOf: URL(fileURLWithPath: clip)), fields: ["title": "signed upload"])
        let bytes = Array(body.readableBytesView)
        try await test.app { $0.writeProtection = WriteProtection(secret: Self.secret) }.test(.live) { client in
            let now = Int64(Date().timeIntervalSince1970)
            let signature = try await Signer.sign(secret: Self.secret, method: "POST", target: "/api/media", body: bytes, timestamp: now)
            var tampered = bytes
            tampered[tampered.count / 2] ^= 0x01
            let forged = try await client.execute(
                uri: "/api/media", method: .post, headers: [.contentType: contentType, .timestamp: "\(now)", .signature: signature],
                body: ByteBuffer(bytes: tampered)
            )
            #expect(forged.status == .unauthorized)
            #expect(forged.body.text == #"{"error":"Invalid X-Signature"}"#)
            #expect(try test.storedMedia().isEmpty, "the streamed file was removed")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)

            let signed = try await client.execute(
                uri: "/api/media", method: .post, headers: [.contentType: contentType, .timestamp: "\(now)", .signature: signature],
                body: ByteBuffer(bytes: bytes)
            )
            #expect(signed.status == .created, "\(signed.body.text)")
            #expect(try test.storedMedia().count == 1)
            let replayed = try await client.execute(
                uri: "/api/media", method: .post, headers: [.contentType: contentType, .timestamp: "\(now)", .signature: signature],
                body: ByteBuffer(bytes: bytes)
            )
            #expect(replayed.status == .unauthorized, "refused before the body is read")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).count == 1)
        }
    }

    @Test func keysAndSecretsAreNeverLogged() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let capture = LogCapture()
        let protection = WriteProtection(keys: Self.keys, secret: Self.secret)
        try await test.app(logger: capture.logger) { $0.writeProtection = protection }.test(.live) { client in
            let now = Int64(Date().timeIntervalSince1970)
            let uri = "/api/media/\(item.id)"
            let signature = try await Signer.sign(secret: Self.secret, method: "DELETE", target: uri, body: [], timestamp: now)
            for headers: HTTPFields in [
                [.apiKey: Self.keys[0]], [.apiKey: "wrong", .timestamp: "\(now)", .signature: signature],
                [.apiKey: Self.keys[1], .timestamp: "\(now)", .signature: String(repeating: "0", count: 64)],
                [.apiKey: Self.keys[1], .timestamp: "\(now)", .signature: signature],
            ] {
                _ = try await client.execute(uri: uri, method: .delete, headers: headers)
            }
            _ = try await client.execute(uri: "/api/media?title=x", method: .post, headers: [.apiKey: Self.keys[0], .contentType: "video/mp4"], body: ByteBuffer(string: "x"))
        }
        let log = capture.text
        #expect(log.contains("write protection is on"))
        #expect(log.contains("hb.request.path"), "requests were logged: \(log.prefix(300))")
        for secret in Self.keys + [Self.secret] {
            #expect(!log.contains(secret), "\(secret) appears in the log")
        }
        #expect(!"\(protection)".contains(Self.secret) && !"\(protection)".contains(Self.keys[0]))
    }

    @Test func openModeWarnsAtStart() async throws {
        let test = try TestLibrary()
        let capture = LogCapture()
        try await test.app(logger: capture.logger) { _ in }.test(.live) { client in
            let response = try await client.execute(uri: "/api/media?title=x", method: .post, headers: [.contentType: "video/mp4"], body: ByteBuffer(string: "x"))
            #expect(response.status == .unprocessableContent, "anyone may write")
        }
        #expect(capture.text.contains("warning write protection is off"))
        #expect(capture.text.contains("anyone can upload"))
    }

    /// `vod serve` takes a key from `VOD_API_KEY` and more from `--api-key-file`, and logs neither.
    @Test func vodServeReadsKeysFromTheEnvironmentAndAFile() async throws {
        let test = try TestLibrary()
        let keyFile = try Self.keyFile(in: test.directory)
        let port = try LoopbackPort.free()
        let log = test.directory.url.appendingPathComponent("serve.log").path
        let command = """
            VOD_API_KEY=env-key-5d4c3b2a exec '\(VODBinary.path)' serve --port \(port) --database '\(test.databasePath)' \
            --media-dir '\(test.mediaDirectory)' --output-dir '\(test.outputDirectory)' --workers 0 --log-level trace \
            --api-key-file '\(keyFile)' > '\(log)' 2>&1
            """
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/bin/sh")
        server.arguments = ["-c", command]
        try server.run()
        defer { server.terminate() }
        let url = "http://127.0.0.1:\(port)"
        try await waitUntil("vod serve listens", timeout: 30) {
            try await ExternalTool.run("curl", ["-sf", "\(url)/health"]).standardOutput == "OK"
        }
        func status(_ arguments: [String]) async throws -> String {
            try await ExternalTool.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE"] + arguments + ["\(url)/api/media/1"]).standardOutput
        }
        #expect(try await status([]) == "401")
        #expect(try await status(["-H", "X-API-Key: nope"]) == "401")
        #expect(try await status(["-H", "X-API-Key: env-key-5d4c3b2a"]) == "404", "past the key check: no media 1")
        #expect(try await status(["-H", "X-API-Key: \(Self.keys[1])"]) == "404")
        server.terminate()
        while server.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        let output = try String(contentsOfFile: log, encoding: .utf8)
        #expect(output.contains("write protection is on"), "\(output)")
        for secret in Self.keys + ["env-key-5d4c3b2a"] { #expect(!output.contains(secret)) }
    }
}

/// Signs as a client would, with OpenSSL: an implementation independent of the server's.
enum Signer {
    static func sign(secret: String, method: String, target: String, body: [UInt8], timestamp: Int64) async throws -> String {
        let directory = try TemporaryDirectory()
        let message = directory.url.appendingPathComponent("message")
        try Data(Array("\(method)\n\(target)\n".utf8) + body + Array("\n\(timestamp)".utf8)).write(to: message)
        let output = try await ExternalTool.require("openssl", ["dgst", "-sha256", "-hmac", secret, "-r", message.path])
        return String(output.standardOutput.prefix(64))
    }
}
