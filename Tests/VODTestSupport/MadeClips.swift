import Foundation

/// The synthetic clips made so far in this test process, each encoded once: many tests and test cases ask for the
/// same clip, and each gets its own copy of the first encode. The files are removed when the process exits.
actor MadeClips {
    static let shared = MadeClips()

    private var encodes: [SyntheticClip: Task<String, any Error>] = [:]

    /// Copies `clip` to `path`, encoding it first if no test of this process has asked for it yet.
    func copy(of clip: SyntheticClip, to path: String) async throws {
        let made = encodes[clip] ?? Self.encode(clip)
        encodes[clip] = made
        let source: String
        do {
            source = try await made.value
        } catch {
            if encodes[clip] == made { encodes[clip] = nil }
            throw error
        }
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    private static func encode(_ clip: SyntheticClip) -> Task<String, any Error> {
        Task {
            try FileManager.default.createDirectory(at: madeClipsFolder, withIntermediateDirectories: true)
            let path = madeClipsFolder.appendingPathComponent("\(UUID().uuidString).\(clip.container)").path
            try await clip.encode(to: path)
            return path
        }
    }
}

/// Where this process keeps the clips it made, removed at its exit.
private let madeClipsFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vod-test-clips-\(getpid())")
    atexit { try? FileManager.default.removeItem(at: madeClipsFolder) }
    return folder
}()
