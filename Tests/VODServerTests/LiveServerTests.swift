import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODConformance
import VODServer
import VODTestSupport

/// The server on loopback with real clients: curl, Python sockets, ffmpeg and GStreamer.
@Suite(.serialized, .tags(.ffmpeg, .gstreamer, .browser, .sharedMedia, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct LiveServerTests {
    @Test func aLargeUploadIsStreamedToDiskNotMemory() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 1).with(container: "ts").make(in: test.directory.url)
        let clipSize = try FileManager.default.attributesOfItem(atPath: clip)[.size] as! Int
        let paddingBlocks = 210  // 210 × 5000 null TS packets of 188 bytes: 197 MB after the clip
        let expectedSize = Int64(clipSize + paddingBlocks * 5000 * 188)
        let server = try ServerProcess(library: test, arguments: ["--workers", "0"])
        try await server.waitUntilListening()
        let baseline = peakMemory(of: server.process.processIdentifier)
        let pipeline = """
            { cat '\(clip)'; python3 -c 'import sys
            packet = bytes([0x47, 0x1f, 0xff, 0x10]) + b"\\xff" * 184
            for _ in range(\(paddingBlocks)): sys.stdout.buffer.write(packet * 5000)'; } |
            curl -s -H 'Expect:' -H 'Content-Type: video/mp2t' -X POST -T - '\(server.url)/api/media?title=Big'
            """
        let output = try await ExternalTool.require("sh", ["-c", pipeline])
        let peak = peakMemory(of: server.process.processIdentifier)
        #expect(try await server.stop(SIGTERM) == 0)
        #expect(output.standardOutput.contains(#""title":"Big""#), "\(output.standardOutput)")
        let item = try #require(try await test.catalog.list(status: nil, limit: 1, offset: 0).first)
        #expect(item.sourceSize == expectedSize)
        #expect(try FileManager.default.attributesOfItem(atPath: item.sourcePath)[.size] as? Int64 == expectedSize)
        #expect(baseline > 0)
        #expect(peak - baseline < 32 << 20, "the server's peak grew \((peak - baseline) >> 20) MB for a \(expectedSize >> 20) MB body")
    }

    @Test(arguments: ["raw", "multipart"])
    func aClientThatDisconnectsMidUploadLeavesNoRowAndNoFile(_ kind: String) async throws {
        let test = try TestLibrary()
        try await test.app().test(.live) { client in
            let port = try #require(client.port)
            let contentType = kind == "raw" ? "video/mp4" : "multipart/form-data; boundary=XyZ"
            let prefix = kind == "raw" ? "" : #"--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.mp4\"\r\n\r\n"#
            let script = """
                import socket, time
                s = socket.create_connection(("127.0.0.1", \(port)))
                s.sendall(b"POST /api/media HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: \(contentType)\\r\\nContent-Length: 50000000\\r\\n\\r\\n")
                s.sendall(b"\(prefix)" + b"\\0" * 5000000)
                time.sleep(1.5)
                s.close()
                """
            let sender = Task { try await ExternalTool.require("python3", ["-c", script]) }
            try await waitUntil("the upload is being received", timeout: 20) { !openFiles(in: test.mediaDirectory).isEmpty }
            _ = try await sender.value
            try await waitUntil("the staging file is closed", timeout: 20) { openFiles(in: test.mediaDirectory).isEmpty }
            #expect(try test.storedMedia().isEmpty)
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.body.text == "OK", "the server carries on")
        }
    }

    @Test func uploadThenPlayEveryVariantOverHTTP() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 4).make(in: test.directory.url)
        try await test.app(workers: 1).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let item = try await test.uploadUntilTranscoded(clip, title: "Played", to: server)
            let id = item.id
            #expect(item.progress == 1)

            let media = try await client.execute(uri: "/api/media/\(id)", method: .get)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: media.body)) as? [String: Any])
            #expect(json["ready?"] as? Bool == true)
            #expect((json["variants"] as? [Any])?.count == 2)

            let stream = "\(server)/api/media/\(id)/stream"
            let programs = try await IndependentPlayers.programCount(master: stream)
            #expect(programs == 2)
            for program in 0..<programs {
                let errors = try await IndependentPlayers.decodeErrors(master: stream, program: program)
                #expect(errors == "", "program \(program)")
            }
            let all = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", stream, "-map", "0", "-f", "null", "-"])
            #expect(all.status == 0 && all.standardError.isEmpty, "\(all.standardError)")
            let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: stream)
            #expect(gstreamer.status == 0, "\(gstreamer.standardError)")
        }
    }

    /// A film with two languages is served with its audio renditions, which players reach from the master.
    @Test func alternateAudioIsServedAndPlayedOverHTTP() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip.multiTrack([
            ToneTrack(frequency: 400, metadata: ["language=eng"], disposition: "default"),
            ToneTrack(frequency: 600, metadata: ["language=spa"]),
        ], duration: 4, in: test.directory.url)
        try await test.app(workers: 1).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let id = try await test.uploadUntilTranscoded(clip, title: "Two languages", to: server).id

            let master = try await client.execute(uri: "/api/media/\(id)/stream", method: .get)
            let text = String(buffer: master.body)
            #expect(text.contains(#"NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="stream/audio_0/index.m3u8""#))
            #expect(text.contains(#"NAME="Español",LANGUAGE="es",DEFAULT=NO,AUTOSELECT=YES,CHANNELS="2",URI="stream/audio_1/index.m3u8""#))
            for rendition in 0..<2 {
                let playlist = try await client.execute(uri: "/api/media/\(id)/stream/audio_\(rendition)/index.m3u8", method: .get)
                #expect(playlist.status == .ok)
                #expect(playlist.headers[.contentType] == "application/vnd.apple.mpegurl")
                let segment = try await client.execute(uri: "/api/media/\(id)/stream/audio_\(rendition)/segment_000.ts", method: .get)
                #expect(segment.status == .ok && segment.headers[.contentType] == "video/mp2t")
            }
            let stream = "\(server)/api/media/\(id)/stream"
            let all = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", stream, "-map", "0", "-f", "null", "-"])
            #expect(all.status == 0 && all.standardError.isEmpty, "\(all.standardError)")
            let streams = try await IndependentPlayers.streams(at: stream)
            #expect(streams.filter { $0.codec_type == "audio" }.count == 2, "ffprobe finds both renditions")
            let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: stream)
            #expect(gstreamer.status == 0, "\(gstreamer.standardError)")
            try await Self.expectChromiumPlays(stream, picture: true)
        }
    }

    /// Chromium's native HLS plays the first 3 s of `stream` with no media error, with a picture or, for an
    /// audio-only title, without one.
    static func expectChromiumPlays(_ stream: String, picture: Bool) async throws {
        let playback = try await BrowserPlayer.play(stream, seconds: 3)
        #expect(playback.error == nil, "\(playback.error ?? "")")
        #expect(playback.currentTime >= 3, "Chromium played \(playback.currentTime) s")
        #expect((playback.videoWidth > 0) == picture, "Chromium shows a \(playback.videoWidth)-pixel-wide picture")
    }

    /// A caption uploaded to a transcoded title is one more subtitles rendition: the title still follows every
    /// rule, ffmpeg reads the captions over HTTP, and GStreamer plays the title with them.
    @Test func anUploadedCaptionConformsAndPlays() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 8).make(in: test.directory.url)
        // The rules ask for High profile, which x264's ultrafast preset, the tests' usual one, does not use.
        let app = test.app { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            configuration.transcodeOptions.preset = "superfast"
        }
        try await app.test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let item = try await test.uploadUntilTranscoded(clip, title: "Captioned", to: server)
            let srt = "1\n00:00:05,000 --> 00:00:07,000\nAcross the first cut.\n"
            let added = try await CaptionAPITests.post(client, item.id, file: Data(srt.utf8), fields: ["language": "de", "default": "yes"])
            #expect(added.status == .created, "\(added.body.text)")
            let report = HLSConformance.check(masterURL: URL(fileURLWithPath: try #require(item.hlsPath)).appendingPathComponent("master.m3u8"))
            #expect(report.violations.map(\.description) == [])
            // FFmpeg 5.1's HLS demuxer leaves subtitle renditions out of the master, so it reads the caption's playlist.
            let id = try #require(try CaptionAPITests.json(added)["id"] as? Int)
            let playlist = "\(server)/api/media/\(item.id)/stream/captions_\(id)/index.m3u8"
            let subtitles = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", playlist, "-f", "webvtt", "-"])
            #expect(subtitles.standardError == "" && subtitles.standardOutput.contains("Across the first cut."), "\(subtitles.standardError) \(subtitles.standardOutput)")
            let stream = "\(server)/api/media/\(item.id)/stream"
            let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: stream)
            #expect(gstreamer.status == 0, "\(gstreamer.standardError)")
            try await Self.expectChromiumPlays(stream, picture: true)
        }
    }

    /// A podcast becomes an audio-only title at the same stream URL, and players play it.
    @Test func anAudioOnlyUploadIsReadyAndPlayedOverHTTP() async throws {
        let test = try TestLibrary()
        let clip = try await AudioOnlyClip(duration: 7, fileName: "episode.m4a").make(in: test.directory.url)
        try await test.app(workers: 1).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let id = try await test.uploadUntilTranscoded(clip, title: "Episode 1", to: server).id
            let json = try JSONSerialization.jsonObject(with: Data(buffer: try await client.execute(uri: "/api/media/\(id)", method: .get).body)) as? [String: Any]
            #expect(json?["status"] as? String == "ready" && json?["ready?"] as? Bool == true)
            #expect(abs((json?["duration"] as? Double ?? 0) - 7) < 0.05, "\(json?["duration"] ?? "no duration")")
            let master = try await client.execute(uri: "/api/media/\(id)/stream", method: .get)
            #expect(master.status == .ok && String(buffer: master.body).contains("stream/audio_0/index.m3u8"))
            let stream = "\(server)/api/media/\(id)/stream"
            let all = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", stream, "-map", "0", "-f", "null", "-"])
            #expect(all.status == 0 && all.standardError.isEmpty, "\(all.standardError)")
            let streams = try await IndependentPlayers.streams(at: stream)
            #expect(streams.map(\.codec_type) == ["audio"], "ffprobe finds the sound and no picture")
            let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: stream)
            #expect(gstreamer.status == 0, "\(gstreamer.standardError)")
            try await Self.expectChromiumPlays(stream, picture: false)
        }
    }

    /// A film's SubRip track is served as WebVTT, segment by segment and whole for download, and players read it.
    @Test func subtitlesAreServedAsWebVTT() async throws {
        let test = try TestLibrary()
        try await test.app(workers: 1).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let id = try await test.uploadUntilTranscoded(SharedMedia.path("mkv-sub-srt.mkv"), title: "Subtitled", to: server).id
            let master = String(buffer: try await client.execute(uri: "/api/media/\(id)/stream", method: .get).body)
            #expect(master.contains(#"URI="stream/subtitles_0/index.m3u8""#) && master.contains(#"SUBTITLES="subs""#))
            for file in ["segment_000.vtt", "subtitles.vtt"] {
                let response = try await client.execute(uri: "/api/media/\(id)/stream/subtitles_0/\(file)", method: .get)
                #expect(response.status == .ok && response.headers[.contentType] == "text/vtt", "\(file)")
                #expect(String(buffer: response.body).contains("This is the first subtitle."))
            }
            // FFmpeg 5.1's HLS demuxer leaves subtitle renditions out of the master, so it reads the rendition's playlist.
            let playlist = "\(server)/api/media/\(id)/stream/subtitles_0/index.m3u8"
            let read = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", playlist, "-f", "webvtt", "-"])
            #expect(read.standardError == "" && read.standardOutput.contains("This is the first subtitle."), "\(read.standardError)")
            let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: "\(server)/api/media/\(id)/stream")
            #expect(gstreamer.status == 0, "\(gstreamer.standardError)")
        }
    }

    @Test func aGracefulRestartRequeuesTheRunningJobAndTheNextServerFinishesIt() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 60, hasAudio: true).make(in: test.directory.url)
        let id = try await test.app(workers: 1).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let id = try await test.curlUpload(clip, title: "Interrupted", to: server)
            try await waitUntil("media \(id) is processing") { try await test.status(of: id) == .processing }
            return id
        }
        let interrupted = try #require(try await test.catalog.media(id: id))
        #expect(interrupted.status == .pending, "shutdown put the job back in the queue")
        #expect(interrupted.attempts == 0, "an interruption by shutdown does not count as an attempt")
        #expect(!FileManager.default.fileExists(atPath: test.library.outputFolder(for: id)))
        try await test.app(workers: 1).test(.live) { _ in
            try await waitUntil("media \(id) is ready", timeout: 300) { try await test.status(of: id) == .ready }
        }
        #expect(try await test.catalog.media(id: id)?.attempts == 1)
    }

    @Test func aKilledServerLeavesTheJobToTheNextOne() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 60).make(in: test.directory.url)
        let first = try ServerProcess(library: test)
        try await first.waitUntilListening()
        let id = try await test.curlUpload(clip, title: "Crashed", to: first.url)
        try await waitUntil("media \(id) is processing") { try await test.status(of: id) == .processing }
        _ = try await first.stop(SIGKILL)
        #expect(try await test.status(of: id) == .processing, "nobody cleaned up after a crash")

        let second = try ServerProcess(library: test)
        try await second.waitUntilListening()
        try await waitUntil("media \(id) is ready", timeout: 300) { try await test.status(of: id) == .ready }
        #expect(try await test.catalog.media(id: id)?.attempts == 2, "the crashed attempt counts")
        let played = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", "\(second.url)/api/media/\(id)/stream", "-map", "0", "-f", "null", "-"])
        #expect(played.status == 0, "\(played.standardError)")
        #expect(try await second.stop(SIGTERM) == 0, "SIGTERM stops the server gracefully")
    }

    @Test func importRunsWhileTheServerRuns() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2).make(in: test.directory.url, name: "Imported clip")
        let notes = test.directory.url.appendingPathComponent("notes.mp4").path
        try Data("not a video\n".utf8).write(to: URL(fileURLWithPath: notes))
        try await test.app(workers: 1).test(.live) { client in
            let run = try await VODBinary.run([
                "import", clip, notes, "--database", test.databasePath, "--media-dir", test.mediaDirectory,
                "--output-dir", test.outputDirectory,
            ])
            #expect(run.status == 1, "one of the two files failed")
            #expect(run.standardOutput.contains("imported as media 1 (pending)"), "\(run.standardOutput)")
            #expect(run.standardError.contains("notes.mp4: The uploaded file is not a playable video"), "\(run.standardError)")
            try await waitUntil("the imported media is ready") { try await test.status(of: 1) == .ready }
            let media = try await client.execute(uri: "/api/media", method: .get)
            #expect(media.body.text.hasPrefix(#"[{"id":1,"title":"Imported clip","#))
            #expect(FileManager.default.fileExists(atPath: clip), "the original stays where it was")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).count == 1)
        }
    }
}

extension SyntheticClip {
    func with(container: String) -> SyntheticClip {
        var clip = self
        clip.container = container
        return clip
    }
}
