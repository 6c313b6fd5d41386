import Foundation
import Testing
import VODCatalog
import VODConformance
import VODServer
import VODService
import VODTestSupport

/// Issue 4, part 1: every broken, unusual, lying or disguised upload ends in a conformant ladder, a 4xx JSON
/// refusal or a failed item with a reason; the server never crashes, hangs past its job limit, grows without
/// bound or reads a file other than the upload.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct HostileUploadTests {
    @Test func everyCorpusFileEndsWellAndNothingElseIsRead() async throws {
        let folders = try ServedFolders()
        let corpus = folders.directory.url.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        let files = try await HostileCorpus.files.asyncMap { ($0, try await $0.write(in: corpus)) }
        let trace = folders.directory.url.appendingPathComponent("strace.log")
        let server = try await folders.serve(
            ["--job-timeout", "60"],
            tracer: ["strace", "-f", "--seccomp-bpf", "-e", "trace=open,openat,openat2,connect", "-o", trace.path]
        )
        let startupTrace = try Data(contentsOf: trace).count
        // The corpus goes through twice: the first pass also warms up what the server allocates once (codec
        // tables, thread stacks, its malloc arenas), so the second shows what each upload leaves behind.
        var memory: [[Int]] = [[], []]
        var outcomes: [HostileCorpus.Outcome: Int] = [:]
        for pass in memory.indices {
            for (file, path) in files {
                let (outcome, reason) = try await push(path, to: server, folders: folders)
                outcomes[outcome, default: 0] += 1
                #expect(file.allowed.contains(outcome), "\(file): \(outcome) (\(reason))")
                if let expected = file.reasonContains {
                    #expect(reason.contains(expected), "\(file): \(reason)")
                }
                #expect(try await server.isHealthy(), "the server still answers after \(file)")
                memory[pass].append(residentMemory(of: server.serverPID))
                print("corpus, pass \(pass + 1): \(file) → \(outcome.rawValue) \(reason); resident \(memory[pass].last! >> 20) MB")
            }
        }
        for item in try await folders.items() where item.status == .ready {
            let stream = "\(server.url)/api/media/\(item.id)/stream"
            let played = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", stream, "-map", "0", "-f", "null", "-"])
            #expect(played.status == 0 && played.standardError.isEmpty, "\(stream) plays: \(played.standardError)")
        }
        let peak = peakMemory(of: server.serverPID)
        #expect(try await server.stop(SIGTERM) == 0)

        let opened = String(decoding: try Data(contentsOf: trace).dropFirst(startupTrace), as: UTF8.self)
        #expect(!opened.contains("/etc/passwd"), "the server opened /etc/passwd while handling uploads or serving streams")
        #expect(!opened.contains("htons(9)"), "the server connected to the trap URL")
        #expect(opened.contains(folders.media), "the trace saw the server open its uploads")
        let passwd = try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd")).prefix(24)
        for file in try allFiles(under: [folders.media, folders.output]) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)).range(of: passwd) == nil, "\(file) holds /etc/passwd")
        }
        let items = try await folders.items()
        let rotated = try #require(items.first { $0.sourceFileName == "rotated.mp4" })
        #expect(rotated.variantsJSON?.contains(#""height":320"#) == true, "the rotated clip became portrait")
        #expect(outcomes.values.reduce(0, +) == 2 * HostileCorpus.files.count)
        #expect(peak < 400 << 20, "peak resident memory \(peak >> 20) MB")
        let (before, after) = (memory[0].last!, memory[1].last!)
        #expect(after - before < 16 << 20, "the second pass took resident memory from \(before >> 20) to \(after >> 20) MB")
        print("corpus outcomes: \(outcomes.map { "\($0.key.rawValue) \($0.value)" }.sorted()), peak \(peak >> 20) MB")
    }

    @Test func aJobPastItsTimeLimitIsStoppedAndFailedWithTheReason() async throws {
        let folders = try ServedFolders()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 60).make(in: folders.directory.url)
        // veryslow keeps the job running well past one second however fast the machine is.
        let server = try await folders.serve(["--job-timeout", "1", "--preset", "veryslow"])
        let answer = try await UploadAnswer.send(clip, to: server.url)
        let id = try #require(answer.id, "\(answer)")
        try await waitUntil("the job is failed", timeout: 30) { try await folders.catalog.media(id: id)?.status == .failed }
        let item = try #require(try await folders.catalog.media(id: id))
        #expect(item.error == "Transcoding failed: it took longer than the 1-second limit for this file and was stopped")
        #expect(folders.entries(of: folders.output).isEmpty, "the stopped job left no staging folder")
        #expect(try await server.isHealthy())
        #expect(try await server.stop(SIGTERM) == 0)
    }

    @Test func theDefaultTimeLimitFollowsTheSourceDuration() {
        let limit = JobTimeLimit()
        #expect(limit.limit(forSourceDuration: 3) == JobTimeLimit.floor)
        #expect(limit.limit(forSourceDuration: 3600) == JobTimeLimit.cap)
        #expect(limit.limit(forSourceDuration: 1200) == .seconds(12_000))
        #expect(limit.limit(forSourceDuration: nil) == JobTimeLimit.cap)
        #expect(JobTimeLimit(fixed: .seconds(5)).limit(forSourceDuration: 3600) == .seconds(5))
    }

    /// Uploads one file and follows it to its end: the outcome, and the refusal or failure reason.
    private func push(
        _ path: String, to server: ServerProcess, folders: ServedFolders
    ) async throws -> (HostileCorpus.Outcome, String) {
        let answer = try await UploadAnswer.send(path, to: server.url)
        guard answer.status == 201, let id = answer.id else {
            #expect((400..<500).contains(answer.status), "\(path): \(answer.status) \(answer.error)")
            #expect(!answer.error.isEmpty, "a refusal says why")
            return (.refused, answer.error)
        }
        try await waitUntil("media \(id) is ready or failed", timeout: 90) {
            [.ready, .failed].contains(try await folders.catalog.media(id: id)?.status)
        }
        let item = try #require(try await folders.catalog.media(id: id))
        guard item.status == .ready, let folder = item.hlsPath else {
            let reason = item.error ?? ""
            #expect(reason.hasPrefix("Transcoding failed: ") && !reason.contains("Error Domain"), "\(reason)")
            return (.failed, reason)
        }
        let report = HLSConformance.check(masterURL: URL(fileURLWithPath: folder).appendingPathComponent("master.m3u8"))
        #expect(report.violations.isEmpty, "\(path): \(report.violations)")
        return (.ladder, "")
    }

    private func allFiles(under folders: [String]) throws -> [String] {
        folders.flatMap { folder in
            (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).map { "\(folder)/\($0)" }
        }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
