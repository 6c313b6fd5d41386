import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// Write protection per request, one writer per upload, and uploads that outlive a restart's orphan sweep.
@Suite(.timeLimit(.minutes(10))) struct TusProtectionTests {
    static let key = "tus-key-4e5f6a7b8c9d"
    static let secret = "tus-secret-0a1b2c3d"

    @Test func creatingWritingAndTerminatingNeedTheKey() async throws {
        let test = try TestLibrary()
        try await test.app { $0.writeProtection = WriteProtection(keys: [Self.key]) }.test(.router) { client in
            let anonymous = try await client.tus("/api/uploads", .post, [.uploadLength: "10"])
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.body.text == #"{"error":"Missing or invalid X-API-Key"}"#)
            #expect(anonymous.headers[.tusResumable] == "1.0.0")
            #expect(anonymous.headers[.accessControlAllowOrigin] == "*")
            #expect(try await client.tus("/api/uploads", .options).status == .noContent, "discovery is public")

            let path = try await client.createUpload(length: 10, headers: [.apiKey: Self.key])
            let unsigned = try await client.tus(path, .patch, [.uploadOffset: "0"], body: [1, 2, 3])
            #expect(unsigned.status == .unauthorized)
            let keyed = try await client.tus(path, .patch, [.uploadOffset: "0", .apiKey: Self.key], body: [1, 2, 3])
            #expect(keyed.status == .noContent)
            let head = try await client.tus(path, .head)
            #expect(head.status == .ok && head.headers[.uploadOffset] == "3", "reads are public")
            #expect(try await client.tus(path, .delete).status == .unauthorized)
            #expect(try await client.tus(path, .delete, [.apiKey: "wrong"]).status == .unauthorized)
            #expect(try await client.tus(path, .head).status == .ok, "refused deletes changed nothing")
            #expect(try await client.tus(path, .delete, [.apiKey: Self.key]).status == .noContent)
        }
    }

    @Test(.tags(.processes), .needsExternalTools) func eachSignedChunkIsCheckedAndAForgedOneDiscarded() async throws {
        let test = try TestLibrary()
        let bytes = (0..<600).map { UInt8($0 % 241) }
        try await test.app { $0.writeProtection = WriteProtection(secret: Self.secret) }.test(.live) { client in
            func signed(_ method: String, _ target: String, _ body: [UInt8]) async throws -> HTTPFields {
                let now = Int64(Date().timeIntervalSince1970)
                let signature = try await Signer.sign(secret: Self.secret, method: method, target: target, body: body, timestamp: now)
                return [.timestamp: "\(now)", .signature: signature]
            }
            var creation = try await signed("POST", "/api/uploads", [])
            creation[.uploadLength] = "600"
            let created = try await client.tus("/api/uploads", .post, creation)
            #expect(created.status == .created)
            let path = try #require(created.headers[.location].flatMap(URL.init(string:))).path

            var first = try await signed("PATCH", path, Array(bytes[0..<300]))
            first[.uploadOffset] = "0"
            #expect(try await client.tus(path, .patch, first, body: Array(bytes[0..<300])).status == .noContent)
            var forged = try await signed("PATCH", path, Array(bytes[300..<600]))
            forged[.uploadOffset] = "300"
            var tampered = Array(bytes[300..<600])
            tampered[100] ^= 1
            let refused = try await client.tus(path, .patch, forged, body: tampered)
            #expect(refused.status == .unauthorized)
            #expect(refused.body.text == #"{"error":"Invalid X-Signature"}"#)
            #expect(try await client.tus(path, .head).headers[.uploadOffset] == "300", "the forged chunk was discarded")
            var second = try await signed("PATCH", path, Array(bytes[300..<450]))
            second[.uploadOffset] = "300"
            let accepted = try await client.tus(path, .patch, second, body: Array(bytes[300..<450]))
            #expect(accepted.status == .noContent)
            #expect(accepted.headers[.uploadOffset] == "450")
        }
    }

    @Test(.tags(.processes), .needsExternalTools) func aSecondWriterIsRefusedWhileTheFirstWrites() async throws {
        let test = try TestLibrary()
        let bytes = (0..<500).map { UInt8($0 % 223) }
        try await test.app().test(.live) { client in
            let path = try await client.createUpload(length: 1000)
            let head = RawHTTP.tusPatch(path, offset: 0, length: 500)
            async let slow = RawHTTP(port: try #require(client.port)).send(head, body: Array(bytes[0..<200]), limit: 3)
            try await waitUntil("the first writer has written", timeout: 10) {
                try await client.tus(path, .head).headers[.uploadOffset] == "200"
            }
            for offset in [0, 200] {
                let second = try await client.patch(path, offset: offset, Array(bytes[offset..<offset + 100]))
                #expect(second.status.code == 423, "offset \(offset)")
                #expect(second.body.text == #"{"error":"Another request is writing this upload"}"#)
            }
            _ = try await slow
            var resumed: TestResponse?
            try await waitUntil("the first writer lets go", timeout: 10) {
                resumed = try await client.patch(path, offset: 200, Array(bytes[200..<500]))
                return resumed?.status == .noContent
            }
            #expect(resumed?.headers[.uploadOffset] == "500")
            let id = String(path.dropFirst("/api/uploads/".count))
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(test.mediaDirectory)/.uploads/\(id).bin"))
            #expect(Array(data) == bytes, "the two writers never interleaved")
        }
    }

    @Test func oneRequestAtATimeWritesAnUpload() async throws {
        let test = try TestLibrary()
        let store = TusStore(mediaDirectory: test.mediaDirectory, expiry: 60)
        let upload = try store.create(length: 10, metadata: nil)
        let other = try store.create(length: 10, metadata: nil)
        try await store.withLock(upload.id) {
            await #expect(throws: APIError.uploadBusy) { try await store.withLock(upload.id) {} }
            try await store.withLock(other.id) {}
            #expect(store.removeExpired(now: Date().addingTimeInterval(120)) == [other.id], "the sweep leaves a busy upload alone")
        }
        try await store.withLock(upload.id) {}
    }

    @Test func theOrphanSweepAtStartKeepsUploads() async throws {
        let test = try TestLibrary()
        let store = TusStore(mediaDirectory: test.mediaDirectory, expiry: 60)
        let upload = try store.create(length: 10, metadata: nil)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: store.dataPath(of: upload.id)))
        let report = try await test.library.removeOrphans(changedBefore: Date().addingTimeInterval(60))
        #expect(report.isEmpty)
        #expect(store.upload(upload.id) == upload)
        #expect(store.offset(of: upload) == 3)
    }
}
