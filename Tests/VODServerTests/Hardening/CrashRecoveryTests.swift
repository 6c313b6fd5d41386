import Foundation
import Testing
import VODCatalog
import VODConformance
import VODEngine
import VODTestSupport

/// Issue 4, part 2: `kill -9` at random moments during uploads and transcodes, many times over. After every
/// restart nothing is stuck, nothing partial is served, the catalog is sound and leftovers are removed.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct CrashRecoveryTests {
    /// How many times the server is killed, 0.1–2.65 s after it answers; the schedule is seeded, so every run
    /// kills at the same moments.
    static let kills = 16

    @Test func randomKillsLoseNothingAndLeaveNothingBehind() async throws {
        let folders = try ServedFolders()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 3).make(in: folders.directory.url)
        let delays = HostileCorpus.noise(count: Self.kills, seed: 20_250_401).map { 100 + 10 * Int($0) }
        var leftovers: [String] = []
        var interrupted: [Int64: Int] = [:]
        var removed = 0
        var checked: Set<Int64> = []
        for delay in delays {
            let server = try await folders.serve()
            removed += try await checkRecovery(folders, leftovers: leftovers, interrupted: interrupted, checked: &checked)
            let uploads = (0..<2).map { _ in
                Task { try await UploadAnswer.send(clip, to: server.url, rate: "400k") }
            }
            try await Task.sleep(for: .milliseconds(delay))
            _ = try await server.stop(SIGKILL)
            for upload in uploads { _ = try await upload.value }
            leftovers = try await self.leftovers(folders)
            interrupted = Dictionary(uniqueKeysWithValues: try await folders.items().filter { $0.status == .processing }
                .map { ($0.id, $0.attempts) })
        }
        let server = try await folders.serve()
        removed += try await checkRecovery(folders, leftovers: leftovers, interrupted: interrupted, checked: &checked)
        try await waitUntil("every job has ended", timeout: 180) {
            try await folders.items().allSatisfy { [.ready, .failed].contains($0.status) }
        }
        _ = try await checkRecovery(folders, leftovers: [], interrupted: [:], checked: &checked)
        let items = try await folders.items()
        for item in items where item.status == .failed {
            #expect(item.error?.isEmpty == false, "media \(item.id) failed without a reason")
        }
        #expect(items.contains { $0.status == .ready }, "some jobs completed between the kills")
        #expect(try await self.leftovers(folders).isEmpty)
        #expect(try await server.stop(SIGTERM) == 0)
        print("""
            kills survived: \(Self.kills); items: \(items.count), ready \(items.filter { $0.status == .ready }.count), \
            failed \(items.filter { $0.status == .failed }.count); leftovers removed at restart: \(removed)
            """)
    }

    /// Checks a freshly started server's catalog and folders, and returns how many leftovers it removed.
    private func checkRecovery(
        _ folders: ServedFolders, leftovers: [String], interrupted: [Int64: Int], checked: inout Set<Int64>
    ) async throws -> Int {
        #expect(try folders.catalog.integrityCheck() == ["ok"])
        try await waitUntil("the leftovers of the killed server are removed", timeout: 15) {
            leftovers.allSatisfy { !FileManager.default.fileExists(atPath: $0) }
        }
        try await waitUntil("no job the killed server ran is still processing", timeout: 15) {
            try await folders.items().allSatisfy { item in
                guard item.status == .processing, let attempts = interrupted[item.id] else { return true }
                return item.attempts > attempts
            }
        }
        for item in try await folders.items() where item.status == .ready && !checked.contains(item.id) {
            let folder = try #require(item.hlsPath)
            let report = HLSConformance.check(masterURL: URL(fileURLWithPath: folder).appendingPathComponent("master.m3u8"))
            #expect(report.violations.isEmpty, "ready media \(item.id): \(report.violations)")
            checked.insert(item.id)
        }
        return leftovers.count
    }

    /// What a killed server left: staging folders, partial uploads and originals no row names.
    private func leftovers(_ folders: ServedFolders) async throws -> [String] {
        let known = Set(try await folders.catalog.sourcePaths().values)
        let staging = folders.entries(of: folders.output).filter(OutputFolder.isStaging).map { "\(folders.output)/\($0)" }
        let media = folders.entries(of: folders.media).map { "\(folders.media)/\($0)" }.filter { path in
            let name = (path as NSString).lastPathComponent
            return name.hasPrefix(".upload-") || (!name.hasPrefix(".") && !known.contains(path))
        }
        return staging + media
    }
}
