import Foundation
import Testing
import VODTestSupport

/// `vod transcode` and `vod probe` run as processes, as a user runs them.
@Suite("vod transcode and vod probe", .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10)))
struct TranscodeCommandTests {
    @Test func transcodesEachInputIntoItsOwnFolderAndFailsForBadOnes() async throws {
        let directory = try TemporaryDirectory()
        let good = try await SyntheticClip(width: 320, height: 240, duration: 2).make(in: directory.url, name: "good")
        let bad = directory.url.appendingPathComponent("bad.mp4").path
        try Data("#EXTM3U\n#EXTINF:1,\n/etc/passwd\n".utf8).write(to: URL(fileURLWithPath: bad))
        let output = directory.url.appendingPathComponent("renditions").path

        let run = try await VODBinary.run(["transcode", good, bad, "--output", output,
                                    "--ladder", "240p:320x240@300k", "--preset", "superfast"])

        #expect(run.status != 0, "a failed input makes the exit status non-zero")
        #expect(run.standardError.contains("bad.mp4: failed: the file is an HLS playlist"))
        #expect(FileManager.default.fileExists(atPath: output + "/good/master.m3u8"))
        #expect(FileManager.default.fileExists(atPath: output + "/good/240p/index.m3u8"))
        #expect(!FileManager.default.fileExists(atPath: output + "/bad"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["good"], "no staging folders remain")
        #expect(run.standardOutput.contains("240p"))
        #expect(run.standardOutput.contains("real time"), "the closing table gives the speed")
        #expect(run.standardError.contains("good: 100%"), "progress is printed as plain lines when not on a terminal")
    }

    @Test func succeedsWhenEveryInputSucceeds() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 1, hasAudio: false).make(in: directory.url)
        let run = try await VODBinary.run(["transcode", clip, "-o", directory.url.appendingPathComponent("out").path,
                                    "--ladder", "240p:320x240@300k", "--preset", "superfast"])
        #expect(run.status == 0, "\(run.standardError)")
    }

    @Test func encodesAtCappedQualityByDefaultSaysWhichRateControlEachRungGotAndRefusesAnUnknownOne() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2, hasAudio: false).make(in: directory.url)
        let arguments = ["transcode", clip, "--ladder", "240p:320x240@300k", "--preset", "superfast"]
        let quality = try await VODBinary.run(arguments + ["-o", directory.url.appendingPathComponent("quality").path])
        #expect(quality.status == 0, "\(quality.standardError)")
        let row = try #require(quality.standardOutput.split(separator: "\n").first { $0.hasPrefix("240p ") })
        #expect(row.contains(" crf "), "the default, capped constant quality: the quality column names the CRF: \(row)")
        #expect(quality.standardOutput.contains("chosen per title (SSIM"), "and how it was chosen: \(quality.standardOutput)")
        let fixed = try await VODBinary.run(arguments + ["-o", directory.url.appendingPathComponent("fixed").path, "--rate-control", "fixed"])
        #expect(fixed.status == 0, "\(fixed.standardError)")
        #expect(fixed.standardOutput.split(separator: "\n").first { $0.hasPrefix("240p ") }?.contains(" fixed ") == true)
        #expect(!fixed.standardOutput.contains("chosen per title"))
        let unknown = try await VODBinary.run(["transcode", clip, "--rate-control", "vbr"])
        #expect(unknown.status == 64 && unknown.standardError.contains("Unknown rate control 'vbr'; use quality or fixed."))
    }

    @Test func printsEachAudioTracksLoudnessAndRefusesAnImpossibleTarget() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out").path
        let run = try await VODBinary.run(["transcode", clip, "-o", output, "--ladder", "240p:320x240@300k",
                                           "--preset", "superfast", "--loudness-target=-16"])
        #expect(run.status == 0, "\(run.standardError)")
        let line = try #require(run.standardOutput.split(separator: "\n").first { $0.hasPrefix("audio track 1 (Audio): ") })
        #expect(line.contains(" LUFS integrated · range ") && line.contains(" dBTP"), "\(line)")
        let master = try String(contentsOfFile: output + "/clip/master.m3u8", encoding: .utf8)
        #expect(master.contains(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac""#), "the normalized sound is a rendition of its own")
        let loud = try await VODBinary.run(["transcode", clip, "--loudness-target=-2"])
        #expect(loud.status == 64 && loud.standardError.contains("--loudness-target must be between -70 and -5 LUFS."))
    }

    @Test func addsAnHEVCLadderInFMP4AndRefusesItInMPEGTS() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2, hasAudio: false).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out").path
        let run = try await VODBinary.run(["transcode", clip, "-o", output, "--ladder", "240p:320x240@300k", "--preset", "superfast",
                                           "--segment-format", "fmp4", "--codecs", "h264,hevc", "--hevc-preset", "ultrafast"])
        #expect(run.status == 0, "\(run.standardError)")
        let row = try #require(run.standardOutput.split(separator: "\n").first { $0.hasPrefix("240p-hevc ") })
        #expect(row.contains(" hvc1.1.6.L"), "\(row)")
        let master = try String(contentsOfFile: output + "/clip/master.m3u8", encoding: .utf8)
        #expect(master.contains("240p-hevc/index.m3u8") && master.contains("240p/index.m3u8"))
        for (arguments, message) in [
            (["--codecs", "h264,hevc"], "HEVC renditions are carried in fMP4 segments only: add --segment-format fmp4."),
            (["--codecs", "hevc", "--segment-format", "fmp4"], "--codecs must include h264"),
            (["--codecs", "h264,av1"], "Unknown codec 'av1'; use h264, hevc."),
            (["--hevc-preset", "quick"], "Unknown HEVC preset 'quick'"),
        ] {
            let refused = try await VODBinary.run(["transcode", clip] + arguments)
            #expect(refused.status == 64 && refused.standardError.contains(message), "\(arguments): \(refused.standardError)")
        }
    }

    /// An HLG source's title gets its HDR rung on the defaults (MPEG-TS) unless `--hdr sdr` says otherwise; unknown
    /// modes and presets are refused with the choices.
    @Test func keepsAnHLGSourcesHDRUnlessToldSDR() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.hdr(transfer: "arib-std-b67", width: 320, height: 240, duration: 1).make(in: directory.url)
        let common = ["--ladder", "240p:320x240@300k", "--preset", "superfast"]
        let kept = try await VODBinary.run(["transcode", clip, "-o", directory.url.appendingPathComponent("kept").path] + common)
        #expect(kept.status == 0, "\(kept.standardError)")
        let row = try #require(kept.standardOutput.split(separator: "\n").first { $0.hasPrefix("240p-hdr ") })
        #expect(row.contains(" hvc1.2.4.L"), "HEVC Main10: \(row)")
        let sdr = try await VODBinary.run(["transcode", clip, "-o", directory.url.appendingPathComponent("sdr").path, "--hdr", "sdr"] + common)
        #expect(sdr.status == 0 && !sdr.standardOutput.contains("240p-hdr"), "\(sdr.standardOutput)")
        for (arguments, message) in [
            (["--hdr", "bright"], "Unknown HDR mode 'bright'; use keep or sdr."),
            (["--hdr-preset", "quick"], "Unknown HDR preset 'quick'"),
        ] {
            let refused = try await VODBinary.run(["transcode", clip] + arguments)
            #expect(refused.status == 64 && refused.standardError.contains(message), "\(arguments): \(refused.standardError)")
        }
    }

    @Test func rejectsAMalformedLadder() async throws {
        let run = try await VODBinary.run(["transcode", "x.mp4", "--ladder", "720p:wide@fast"])
        #expect(run.status == 64)
        #expect(run.standardError.contains("Invalid rung '720p:wide@fast'"))
    }

    /// A destination is replaced only when it is a rendition vod wrote: an unrelated folder of the input's name was
    /// replaced with its files, an input without an extension inside OUTPUT was its own destination and was lost,
    /// and two inputs of one name overwrote each other.
    @Test func neverReplacesWhatIsNotARendition() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2).make(in: directory.url, name: "Documents")
        let output = directory.url.appendingPathComponent("home").path
        let documents = output + "/Documents"
        try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: documents + "/taxes.txt"))
        let common = ["--ladder", "240p:320x240@300k", "--preset", "superfast"]

        let folder = try await VODBinary.run(["transcode", clip, "-o", output] + common)
        #expect(folder.status == 64 && folder.standardError.contains("\(documents) exists and is not a rendition vod wrote"))
        #expect(FileManager.default.fileExists(atPath: documents + "/taxes.txt"))

        let bare = output + "/land"
        try FileManager.default.copyItem(atPath: clip, toPath: bare)
        let itself = try await VODBinary.run(["transcode", bare, "-o", output] + common)
        #expect(itself.status == 64 && itself.standardError.contains("\(bare) exists and is not a rendition vod wrote"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: bare)) == Data(contentsOf: URL(fileURLWithPath: clip)))

        let twin = directory.url.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: twin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: clip, toPath: twin + "/Documents.mp4")
        let twins = try await VODBinary.run(["transcode", clip, twin + "/Documents.mp4", "-o", directory.url.appendingPathComponent("x").path] + common)
        #expect(twins.status == 64 && twins.standardError.contains("would both be written into"))

        let file = try await VODBinary.run(["transcode", clip, "-o", clip] + common)
        #expect(file.status == 64 && file.standardError.contains("--output \(clip) is a file, not a folder."))
        let unwritable = try await VODBinary.run(["transcode", clip, "-o", "/proc/vod-test"] + common)
        #expect(unwritable.status == 1 && unwritable.standardError.contains("failed: The operation could not be completed. The file doesn’t exist. (/proc/vod-test)"),
                "a file system error in words, not Foundation's dump: \(unwritable.standardError)")

        let fresh = directory.url.appendingPathComponent("fresh").path
        for _ in 0..<2 {
            let run = try await VODBinary.run(["transcode", clip, "-o", fresh] + common)
            #expect(run.status == 0, "a rendition vod wrote is replaced: \(run.standardError)")
        }
    }

    /// A rung's name is a folder inside the title's, and its bitrate sizes the encoder's buffer: `../owned` wrote
    /// outside the title, two rungs named alike shared one folder, and 2500M stopped the process (and `vod serve`
    /// on every restart, as its job was claimed again).
    @Test(arguments: [
        ("../owned:640x360@400k", "rung name '../owned' must be"),
        ("master.m3u8:640x360@400k", "rung name 'master.m3u8' must be"),
        ("a:640x360@800k,A:320x180@400k", "two rungs are named 'A'"),
        ("stills:640x360@800k", "rung name 'stills' is taken"),
        ("x-hevc:640x360@800k", "rung name 'x-hevc' is taken"),
        ("x:640x360@2500M", "rung 'x' has a bitrate of 2500000000 b/s; use 32k to 500M"),
        ("x:640x360@1k", "rung 'x' has a bitrate of 1000 b/s"),
    ])
    func refusesALadderItCannotWrite(ladder: String, reason: String) async throws {
        let run = try await VODBinary.run(["transcode", "x.mp4", "--ladder", ladder])
        #expect(run.status == 64)
        #expect(run.standardError.contains("--ladder: \(reason)"), "\(run.standardError)")
    }

    @Test func probePrintsJSON() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 1).make(in: directory.url)
        let run = try await VODBinary.run(["probe", clip])
        #expect(run.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let video = try #require(json["video"] as? [String: Any])
        #expect(video["width"] as? Int == 320)
        #expect(video["height"] as? Int == 240)
        #expect((json["audio"] as? [String: Any])?["sampleRate"] as? Int == 44_100)
    }

    @Test func probePrintsTheChapters() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 320, height: 240, duration: 2)
        source.container = "mkv"
        let clip = try await ChapterMarks([(0, 500, "Cold open"), (500, 2000, "")]).add(to: try await source.make(in: directory.url),
                                                                                   name: "chaptered.mkv")
        let run = try await VODBinary.run(["probe", clip])
        #expect(run.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let chapters = try #require(json["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["start"] as? Double } == [0, 0.5] && chapters.map { $0["end"] as? Double } == [0.5, 2])
        #expect(chapters.map { $0["title"] as? String } == ["Cold open", nil] && chapters[1]["title"] is NSNull)
    }

    @Test func probeSaysWhatCameInForAnHDRPhoneClip() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.hdr(transfer: "arib-std-b67", duration: 1).make(in: directory.url)
        let run = try await VODBinary.run(["probe", clip])
        #expect(run.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let source = try #require(json["source"] as? [String: Any])
        #expect(source["hdr"] as? String == "hlg" && source["bit_depth"] as? Int == 10)
        #expect(source["video_codec"] as? String == "hevc" && source["profile"] as? String == "Main 10")
        #expect(source["display_aspect_ratio"] as? String == "16:9" && source["interlaced"] as? Bool == false)
    }

    @Test func transcodeSaysWhyAnUndecodableVideoFailed() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.undecodable(in: directory.url)
        let run = try await VODBinary.run(["transcode", clip, "--output", directory.url.appendingPathComponent("out").path])
        #expect(run.status != 0)
        #expect(run.standardError.contains("undecodable.ivf: failed: the video stream could not be decoded (vp9: Invalid frame marker)"),
                "\(run.standardError)")
    }

    @Test func probeFailsClearlyForText() async throws {
        let directory = try TemporaryDirectory()
        let text = directory.url.appendingPathComponent("notes.mp4")
        try Data("just some notes\n".utf8).write(to: text)
        let run = try await VODBinary.run(["probe", text.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("the file is text, not a media file"))
    }

    @Test(arguments: [[], ["transcode"], ["probe"]])
    func helpIsAvailableAtEveryLevel(_ path: [String]) async throws {
        let run = try await VODBinary.run(path + ["--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("USAGE: vod"))
    }
}
