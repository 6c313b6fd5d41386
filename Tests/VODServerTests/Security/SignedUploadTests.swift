import Foundation
import Testing
import VODTestSupport

/// Issue 27: with a signing secret, an upload whose signing headers are missing, malformed or stale is refused
/// from its head, before its body is read: nothing reaches the upload folder, even while the client is still
/// sending. A well-formed signature that does not match is refused at the body's end, and nothing is kept.
@Suite(.serialized, .tags(.processes), .needsExternalTools, .timeLimit(.minutes(5))) struct SignedUploadTests {
    /// Eight megabytes sent at 2 MB/s: four seconds of body that a server reading it would stage on disk.
    private static let bodySize = 8 << 20
    private static let rate = "2M"

    @Test(arguments: [
        ([], "Signed writes need the X-Timestamp and X-Signature headers"),
        (["X-Timestamp: now", "X-Signature: 00"], "X-Timestamp must be Unix seconds within 300 s of the server's clock"),
        // `$NOW` is the time the case runs: arguments are made when the tests are found, minutes earlier in a long run.
        (["X-Timestamp: $NOW", "X-Signature: not-hex"], "Invalid X-Signature"),
        (["X-Timestamp: 1000", "X-Signature: \(String(repeating: "0", count: 64))"],
         "X-Timestamp must be Unix seconds within 300 s of the server's clock"),
    ])
    func anUnusableSignatureIsRefusedBeforeTheBodyIsStored(_ headers: [String], _ reason: String) async throws {
        let (folders, server, file) = try await signedServer()
        let now = headers.map { $0.replacingOccurrences(of: "$NOW", with: "\(Int(Date().timeIntervalSince1970))") }
        let (answer, seen) = try await upload(file, headers: now, to: server, watching: folders.media)
        #expect(answer.status == 401, "\(answer)")
        #expect(answer.error == reason)
        #expect(answer.seconds < 2, "refused from the head, not after the \(Self.bodySize >> 20) MB body: \(answer.seconds) s")
        #expect(seen.isEmpty, "the upload folder held \(seen) while the body was being sent")
        #expect(try await folders.items().isEmpty)
        #expect(try await server.stop(SIGTERM) == 0)
    }

    @Test func aSignatureThatDoesNotMatchTheBodyIsRefusedAndNothingIsKept() async throws {
        let (folders, server, file) = try await signedServer()
        let headers = ["X-Timestamp: \(Int(Date().timeIntervalSince1970))", "X-Signature: \(String(repeating: "ab", count: 32))"]
        let (answer, _) = try await upload(file, headers: headers, to: server, watching: folders.media)
        #expect(answer.status == 401, "\(answer)")
        #expect(answer.error == "Invalid X-Signature")
        #expect(folders.entries(of: folders.media).isEmpty, "the refused body was removed")
        #expect(try await folders.items().isEmpty)
        #expect(try await server.isHealthy())
        #expect(try await server.stop(SIGTERM) == 0)
    }

    /// A server that signs writes with a secret, and an upload of `bodySize` bytes.
    private func signedServer() async throws -> (ServedFolders, ServerProcess, String) {
        let folders = try ServedFolders()
        let secret = folders.directory.url.appendingPathComponent("secret")
        try "a-signing-secret-for-the-tests\n".write(to: secret, atomically: true, encoding: .utf8)
        let file = folders.directory.url.appendingPathComponent("clip.mp4")
        try Data(repeating: 7, count: Self.bodySize).write(to: file)
        return (folders, try await folders.serve(["--api-secret-file", secret.path]), file.path)
    }

    /// What a signed upload got, and how long it took.
    private struct Answer {
        var status: Int
        var error: String
        var seconds: Double
    }

    /// Uploads `file` as a raw `video/mp4` body at `rate` with `headers`, and lists the entries `folder` showed
    /// meanwhile, looking every 50 ms.
    private func upload(
        _ file: String, headers: [String], to server: ServerProcess, watching folder: String
    ) async throws -> (Answer, Set<String>) {
        let arguments = ["-s", "-w", "\n%{http_code} %{time_total}", "--limit-rate", Self.rate, "-H", "Content-Type: video/mp4",
                         "-H", "Expect:"] + headers.flatMap { ["-H", $0] } + ["--data-binary", "@\(file)", "\(server.url)/api/media"]
        let sent = Task { try await ExternalTool.run("curl", arguments) }
        let watch = Task {
            var seen = Set<String>()
            while !Task.isCancelled {
                seen.formUnion((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                try? await Task.sleep(for: .milliseconds(50))
            }
            return seen
        }
        let output = try await sent.value
        watch.cancel()
        let seen = await watch.value
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let json = (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8))) as? [String: Any]
        let last = (lines.last ?? "").split(separator: " ")
        let answer = Answer(status: Int(last.first ?? "") ?? 0, error: json?["error"] as? String ?? "",
                            seconds: Double(last.last ?? "") ?? .infinity)
        return (answer, seen)
    }
}
