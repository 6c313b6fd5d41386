import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// A page of another origin in a real browser (Chromium) cannot delete, rename or upload on an open server, though it
/// can read; listed with `--cors-origin`, the same page can. The page is a server's `/health` reached as `localhost`,
/// which is another origin than `127.0.0.1`, the address its requests go to.
@Suite(.tags(.browser), .needsExternalTools, .timeLimit(.minutes(10))) struct CrossOriginBrowserTests {
    @Test func aPageOfAnotherOriginReadsButCannotWriteUnlessListed() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app { _ in }.test(.live) { client in
            let port = try #require(client.port)
            let page = "http://localhost:\(port)"
            let seen = try await BrowserPlayer.crossOriginAttempts(server: "http://127.0.0.1:\(port)", id: item.id, pageURL: page + "/health")
            #expect(seen.read == "200", "the page reaches the server and may read")
            #expect(seen.rename.hasPrefix("blocked"), "the preflight does not approve PATCH: \(seen.rename)")
            #expect(seen.remove.hasPrefix("blocked"), "the preflight does not approve DELETE: \(seen.remove)")
            #expect(seen.upload == "opaque", "a form POST needs no preflight, so the browser sends it")
            #expect(try test.storedMedia().isEmpty, "and the server refused it")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).map(\.title) == [item.title])

            try await test.app { $0.corsOrigins = [page] }.test(.live) { listing in
                let server = "http://127.0.0.1:\(try #require(listing.port))"
                let seen = try await BrowserPlayer.crossOriginAttempts(server: server, id: item.id, pageURL: page + "/health")
                #expect(seen.rename == "200" && seen.remove == "204", "\(seen)")
                #expect(try await test.catalog.media(id: item.id) == nil, "the listed origin's page deleted the title")
            }
        }
    }
}
