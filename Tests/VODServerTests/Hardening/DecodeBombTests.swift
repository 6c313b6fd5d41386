import Foundation
import Testing
import VODTestSupport

/// Issue 27: decode bombs. A picture larger than the service decodes, many of them, one that appears
/// mid-stream, and a tiny file of a million pictures with no duration are each refused in words, at upload
/// where the probe sees it or as a failed job, and the server's memory stays under a gigabyte throughout.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct DecodeBombTests {
    @Test func everyBombIsRefusedInWordsWithinAGigabyte() async throws {
        let folders = try ServedFolders()
        let server = try await folders.serve(["--job-timeout", "120"])
        var peaks: [String] = []
        for bomb in DecodeBomb.allCases {
            let path = try await bomb.write(in: folders.directory.url)
            let answer = try await UploadAnswer.send(path, to: server.url)
            let (status, reason) = try await outcome(of: answer, folders: folders)
            print("decode bomb: \(bomb) → \(status) \(reason)")
            #expect(status == expectedStatus(bomb), "\(bomb): \(status) \(reason)")
            #expect(reason == expectedReason(bomb), "\(bomb): \(reason)")
            #expect(try await server.isHealthy(), "the server still answers after \(bomb)")
            let peak = peakMemory(of: server.serverPID)
            peaks.append("\(bomb) \(peak >> 20) MB")
            #expect(peak > 0 && peak < 1 << 30, "peak resident memory \(peak >> 20) MB after \(bomb)")
        }
        print("decode bomb peaks: \(peaks.joined(separator: ", "))")
        #expect(try await server.stop(SIGTERM) == 0)
    }

    /// The upload's answer, or the job's end for an accepted upload: "422" or "failed", and the reason.
    private func outcome(of answer: UploadAnswer, folders: ServedFolders) async throws -> (String, String) {
        guard answer.status == 201, let id = answer.id else { return ("\(answer.status)", answer.error) }
        try await waitUntil("media \(id) is ready or failed", timeout: 120) {
            [.ready, .failed].contains(try await folders.catalog.media(id: id)?.status)
        }
        let item = try #require(try await folders.catalog.media(id: id))
        return (item.status.rawValue, item.error ?? "")
    }

    private func expectedStatus(_ bomb: DecodeBomb) -> String {
        bomb == .growsMidStream ? "failed" : "422"
    }

    private func expectedReason(_ bomb: DecodeBomb) -> String {
        switch bomb {
        case .hugeSPS, .eightHugeStreams:
            "The uploaded file is not a playable video: the video claims 16000×16000 pixels, more than the 8192×4320 this service transcodes"
        case .growsMidStream:
            "Transcoding failed: the video changes to 8000×8000 pixels mid-stream, more than the 8192×4320 this service transcodes"
        case .millionSkipFrames:
            "The uploaded file is not a playable video: the video has no duration and holds more than 108000 pictures (an hour at 30 frames a second), "
                + "the most this service reads from such a file"
        }
    }
}
