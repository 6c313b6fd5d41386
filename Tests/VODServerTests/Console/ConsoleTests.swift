import Foundation
import Testing
import VODTestSupport

/// The web console at `/` in Debian's Chromium, driven by playwright (`Tests/Console/console.py`) against real
/// `vod serve` processes: uploads, live status, playback, audio tracks, deletion, accessibility (axe-core), the
/// Content-Security-Policy, the API key, the player script and phone width. One browser session serves every
/// test here; each judges its part of what the session saw.
@Suite(.tags(.browser, .ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct ConsoleTests {
    /// The browser session, run once for the tests that need it.
    static let session = Task { try await ConsoleBrowserSession.run() }

    @Test func filesPickedInTheFileInputUploadToFullProgress() async throws {
        let report = try await Self.session.value
        let uploads = try #require(report.uploads, "\(report.errors)")
        #expect(uploads.rows.map(\.name).sorted() == ["clip.mp4", "tracks.mkv"])
        for row in uploads.rows {
            #expect(row.state == "Uploaded")
            #expect(row.value == 1)
            #expect(row.numbers.hasPrefix("100 % of "), "\(row.numbers)")
            #expect(row.open?.wholeMatch(of: /#\/media\/\d+/) != nil, "\(row.open ?? "no link")")
            let values = try #require(uploads.values[row.name])
            #expect(values.last == 1, "\(values)")
            #expect(values.contains { $0 > 0 && $0 < 1 }, "the bar was never seen moving: \(values)")
            #expect(values == values.sorted(), "the bar went back: \(values)")
        }
        // Uploads run at 500 kB/s in the browser, so each bar is seen with its rate and the time left.
        let moving = uploads.numbers.filter { $0.firstMatch(of: /^\d+ % of \d+ kB · \d+ kB\/s · \d+ s left$/) != nil }
        #expect(!moving.isEmpty, "\(uploads.numbers)")
    }

    @Test func titlesGoFromProcessingToReadyWithoutAReload() async throws {
        let report = try await Self.session.value
        let statuses = try #require(report.statuses, "\(report.errors)")
        #expect(report.notReloaded == true)
        for title in ["clip", "tracks"] {
            let seen = try #require(statuses[title])
            let processing = try #require(seen.firstIndex { $0.hasPrefix("processing") }, "\(title): \(seen)")
            #expect(seen.last == "ready", "\(title): \(seen)")
            #expect(processing < seen.count - 1, "\(title): \(seen)")
        }
        let clip = try #require(report.cards?.first { $0.title == "clip" })
        #expect(clip.rungs == "Rungs: 144p, 180p")
        #expect(clip.duration == "· 0:04")
        #expect(clip.poster)
        // Both files upload at once, so either may become the newer title: the list is newest first by id.
        let cards = try #require(report.cards)
        let ids = cards.map { Int($0.href.split(separator: "/").last ?? "") ?? 0 }
        #expect(Set(cards.map(\.title)) == ["tracks", "clip"] && ids.count == 2 && ids == ids.sorted(by: >), "newest first: \(cards.map(\.href))")
        #expect(report.searchTra == ["tracks"])
        #expect(report.filterFailed == 0)
    }

    @Test func aTitlePlaysForThreeSecondsAndEachRungCanBeChosen() async throws {
        let report = try await Self.session.value
        let playback = try #require(report.playback, "\(report.errors)")
        #expect(playback.video.error == nil)
        #expect(playback.video.currentTime >= 3)
        #expect(playback.video.videoWidth > 0)
        #expect(playback.video.currentSrc == playback.streamUrl)
        #expect(playback.quality == ["Auto", "144p (256×144)", "180p (320×180)"])
        #expect(playback.variant.name == "144p")
        #expect(playback.afterQuality.currentSrc == playback.variant.playlistUrl)
        #expect(playback.afterQuality.videoWidth == 256)
        #expect(playback.afterQuality.error == nil)
    }

    @Test func thePlayerCopiesTheStreamURLAndSavesAnEditedTitle() async throws {
        let report = try await Self.session.value
        let playback = try #require(report.playback, "\(report.errors)")
        #expect(playback.copied == playback.streamUrl)
        #expect(playback.embed.hasPrefix("<video src=\"\(playback.streamUrl)\""), "\(playback.embed)")
        #expect(playback.embed.hasSuffix(" controls playsinline></video>"), "\(playback.embed)")
        #expect(playback.renamed == "clip, renamed")
    }

    @Test func theAudioMenuSwitchesToTheOtherLanguage() async throws {
        let report = try await Self.session.value
        let audio = try #require(report.audio, "\(report.errors)")
        #expect(audio.options.count == 2, "\(audio.options)")
        #expect(audio.options.first?.contains("en") == true, "\(audio.options)")
        #expect(audio.options.last?.contains("fr") == true, "\(audio.options)")
        #expect(audio.before == [true, false])
        #expect(audio.after == [false, true])
        #expect(audio.selected == audio.options.last)
        #expect(audio.playback.error == nil)
        #expect(!audio.playback.paused)
        #expect(!audio.qualityOffered, "the rungs of a title with audio renditions are video-only")
    }

    @Test func anUploadCutByTheNetworkOrByAReloadGoesOnWhereItStood() async throws {
        let report = try await Self.session.value
        let resume = try #require(report.resume, "\(report.errors)")
        #expect(resume.dropped == "0")
        #expect(resume.interrupted == "Interrupted: trying again in 1 s")
        #expect(resume.states.first == "Starting…")
        #expect(resume.states.last == "Uploaded")
        let resumed = try #require(resume.states.first { $0.hasPrefix("Resumed at ") }, "\(resume.states)")
        let percent = try #require(Int(resumed.dropFirst("Resumed at ".count).prefix { $0.isNumber }))
        // The page was reloaded once the bar passed half; the server keeps what arrived of the chunk in flight.
        #expect(percent >= 25 && percent < 100, "\(resumed)")
        #expect(resume.titles.filter { $0 == "resumed" }.count == 1, "\(resume.titles)")
        #expect(resume.duration == 4, "the whole file arrived and was probed")
    }

    @Test func aDeletedTitleLeavesTheList() async throws {
        let report = try await Self.session.value
        let deleted = try #require(report.deleted, "\(report.errors)")
        #expect(deleted.titles == ["clip, renamed"])
        #expect(deleted.apiStatus == 404)
    }

    @Test func axeCoreFindsNoSeriousOrCriticalViolations() async throws {
        let report = try await Self.session.value
        let axe = try #require(report.axe, "\(report.errors)")
        #expect(Set(axe.keys) == ["library", "player", "phone"], "\(report.errors)")
        for (page, violations) in axe {
            let grave = violations.filter { ["serious", "critical"].contains($0.impact) }
            #expect(grave.isEmpty, "\(page): \(grave)")
        }
    }

    @Test func theContentSecurityPolicyIsSentAndNothingViolatesIt() async throws {
        let report = try await Self.session.value
        #expect(report.errors.isEmpty, "\(report.errors)")
        let page = try #require(report.headers["open-index"])
        #expect(page.status == 200)
        #expect(page.contentType == "text/html; charset=utf-8")
        #expect(page.csp == ConsoleTests.openPolicy)
        #expect(page.nosniff == "nosniff")
        let script = try #require(report.headers["open-script"])
        #expect(script.contentType == "text/javascript; charset=utf-8")
        #expect(script.csp == ConsoleTests.openPolicy)
        #expect(script.nosniff == "nosniff")
        let guarded = try #require(report.headers["key-index"])
        #expect(guarded.csp?.contains("; script-src 'self' http://player.test;") == true, "\(guarded.csp ?? "none")")
        #expect(report.cspViolations.isEmpty, "\(report.cspViolations)")
        #expect(report.pageErrors.isEmpty, "\(report.pageErrors)")
        // The browser logs the chunk the test drops and the wrong key's 401, and nothing else.
        #expect(report.consoleErrors.sorted() == [
            "Failed to load resource: net::ERR_INTERNET_DISCONNECTED",
            "Failed to load resource: the server responded with a status of 401 (Unauthorized)",
        ], "\(report.consoleErrors)")
    }

    @Test func writesAskForTheKeyWhichIsNeverServed() async throws {
        let report = try await Self.session.value
        let key = try #require(report.key, "\(report.errors)")
        #expect(key.writesMeta == "key")
        #expect(key.prompts?.count == 2, "asked before the upload, and once more after the wrong key: \(key.prompts ?? [])")
        #expect(key.prompts?.first == "Changes on this server need an API key.")
        #expect(key.prompts?.last?.contains("Missing or invalid X-API-Key") == true, "\(key.prompts ?? [])")
        #expect(key.uploadState == "Uploaded")
        #expect(key.titles == ["guarded"])
        #expect(key.sessionKey == true)
        #expect(key.keyInLocalStorage == false)
        let served = try #require(key.served)
        #expect(served.contains { $0.url.hasSuffix("/") }, "\(served.map(\.url))")
        #expect(served.contains { $0.url.hasSuffix("/console/keys.js") }, "\(served.map(\.url))")
        #expect(served.allSatisfy { !$0.hasKey }, "\(served.filter(\.hasKey).map(\.url))")
    }

    @Test func theOperatorsPlayerScriptPlaysWhereTheBrowserHasNoHLS() async throws {
        let report = try await Self.session.value
        let player = try #require(report.playerScript, "\(report.errors)")
        #expect(player.given.source == player.streamUrl)
        #expect(player.given.attached == true)
        #expect(player.playback.currentTime >= 1)
        #expect(player.playback.error == nil)
    }

    @Test func aPrivateTitleIsListedWithTheKeyAndPlaysWithATokenTheConsoleMints() async throws {
        let report = try await Self.session.value
        let hidden = try #require(report.privateTitle, "\(report.errors)")
        #expect(hidden.anonymousTitles?.contains("hidden") == false, "\(hidden.anonymousTitles ?? [])")
        #expect(hidden.keyedTitles?.contains("hidden") == true, "\(hidden.keyedTitles ?? [])")
        let card = try #require(hidden.card)
        #expect(card.visibility == "private")
        #expect(!card.poster, "a private poster needs a token")
        let id = try #require(hidden.mediaId)
        #expect(hidden.withoutToken == 403)
        let source = try #require(hidden.source)
        #expect(source.contains("/api/media/\(id)/stream?token="), "\(source)")
        #expect(hidden.streamUrl == source, "the copied URL is the one that plays")
        #expect(hidden.editVisibility == "private")
        let playback = try #require(hidden.playback)
        #expect(playback.currentTime >= 1)
        #expect(playback.error == nil)
        #expect(hidden.publishedTitles?.contains("hidden") == true, "made public from the edit form: \(hidden.publishedTitles ?? [])")
    }

    @Test func withoutHLSOrAPlayerScriptThePageOffersTheStreamURL() async throws {
        let report = try await Self.session.value
        let page = try #require(report.noNativeHls, "\(report.errors)")
        #expect(page.note.contains("This browser cannot play HLS by itself"), "\(page.note)")
        #expect(page.link == page.streamUrl)
    }

    @Test func atPhoneWidthNothingScrollsSideways() async throws {
        let report = try await Self.session.value
        let phone = try #require(report.phone, "\(report.errors)")
        #expect(phone.library.client == 390)
        #expect(phone.library.scroll <= phone.library.client, "\(phone.library)")
        #expect(phone.player.scroll <= phone.player.client, "\(phone.player)")
    }

    /// The policy of a server without `--player-script-url` or `--public-url`.
    static let openPolicy = "default-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; "
        + "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"
}
