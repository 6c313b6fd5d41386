import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODTestSupport
@testable import VODServer

/// How the console's files are served, in process: types, validators, security headers, what the page is told,
/// and the API's 404 for files it does not have.
extension ConsoleTests {
    /// `Sources/VODServer/Resources/Console`, as committed.
    static var consoleFolder: URL { OpenAPIFiles.packageRoot.appendingPathComponent("Sources/VODServer/Resources/Console") }

    /// The files served under `/console/`: all but the page, which is served at `/`.
    static func consoleFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: consoleFolder.path).filter { $0 != "index.html" }.sorted()
    }

    @Test func theRootServesThePageWithValidatorsAndSecurityHeaders() async throws {
        let test = try TestLibrary()
        try await test.app { _ in }.test(.router) { client in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[.contentSecurityPolicy] == Self.openPolicy)
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
            #expect(response.headers[.cacheControl] == "no-cache")
            let page = String(buffer: response.body)
            #expect(page.contains("<script type=\"module\" src=\"/console/app.js\"></script>"))
            #expect(page.contains("<meta name=\"vod-writes\" content=\"open\">"))
            #expect(page.contains("<meta name=\"vod-player-script-url\" content=\"\">"))
            // Nothing a strict policy blocks: no script without `src`, no style element or attribute, no handler.
            #expect(page.firstMatch(of: /<script(?![^>]*\ssrc=)[^>]*>/) == nil)
            #expect(page.firstMatch(of: /<style|\sstyle=|\son[a-z]+=/) == nil)
            let eTag = try #require(response.headers[.eTag])
            let again = try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: eTag])
            #expect(again.status == .notModified)
            let gzipped = try await client.execute(uri: "/", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
        }
    }

    @Test func everyConsoleFileIsServedWithItsTypeAndOthersGetTheAPIs404() async throws {
        let test = try TestLibrary()
        let types = ["js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml"]
        let files = try Self.consoleFiles()
        #expect(files.contains("app.js") && files.contains("console.css") && files.contains("icon.svg"))
        try await test.app { _ in }.test(.router) { client in
            for file in files {
                let response = try await client.execute(uri: "/console/\(file)", method: .get)
                #expect(response.status == .ok, "\(file)")
                #expect(response.headers[.contentType] == types[(file as NSString).pathExtension], "\(file)")
                #expect(response.headers[.contentSecurityPolicy] == Self.openPolicy, "\(file)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(file)")
                #expect(Data(buffer: response.body) == (try Data(contentsOf: Self.consoleFolder.appendingPathComponent(file))), "\(file)")
            }
            for missing in ["/console/nope.js", "/console/index.html", "/console/", "/console/app.js/x"] {
                let response = try await client.execute(uri: missing, method: .get)
                #expect(response.status == .notFound, "\(missing)")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(missing)")
                #expect(String(buffer: response.body) == #"{"error":"Not found"}"#, "\(missing)")
            }
            let api = try await client.execute(uri: "/api/media", method: .get)
            #expect(api.status == .ok)
            #expect(String(buffer: api.body) == "[]")
        }
    }

    @Test func theOpenAPIDocumentNamesEveryConsoleFile() throws {
        let paths = try #require(try OpenAPIFiles.parsed()["paths"] as? [String: [String: [String: Any]]])
        let parameters = try #require(paths["/console/{path}"]?["get"]?["parameters"] as? [[String: Any]])
        let schema = try #require(parameters.first { $0["name"] as? String == "path" }?["schema"] as? [String: Any])
        #expect(schema["enum"] as? [String] == (try Self.consoleFiles()))
    }

    @Test func thePageIsToldThePlayerScriptAndWhatWritesNeedButNeverAKey() async throws {
        let test = try TestLibrary()
        let app = test.app { configuration in
            configuration.playerScriptURL = "https://cdn.example.com/hls.min.js?v=1&x=\"<"
            configuration.publicURL = "https://media.example.net:8443/vod/"
            configuration.writeProtection = WriteProtection(keys: ["first-secret-key", "second-secret-key"], secret: "signing-secret")
        }
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/", method: .get)
            let page = String(buffer: response.body)
            #expect(page.contains("<meta name=\"vod-player-script-url\" content=\"https://cdn.example.com/hls.min.js?v=1&amp;x=&quot;&lt;\">"))
            #expect(page.contains("<meta name=\"vod-writes\" content=\"key signature\">"))
            for secret in ["first-secret-key", "second-secret-key", "signing-secret"] {
                #expect(!page.contains(secret))
            }
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("; script-src 'self' https://cdn.example.com;"), "\(policy)")
            #expect(policy.contains("; media-src 'self' https://media.example.net:8443 blob:;"), "\(policy)")
            #expect(policy.contains("; img-src 'self' https://media.example.net:8443 data:;"), "\(policy)")
            #expect(policy.contains("; connect-src 'self' https://media.example.net:8443;"), "\(policy)")
        }
    }

    @Test func playerScriptsComeFromHTTPOrThisServerOnly() async throws {
        #expect(ContentSecurityPolicy.source(ofScript: "/static/hls.min.js") == "'self'")
        #expect(ContentSecurityPolicy.source(ofScript: "HTTPS://CDN.Example.com/hls.js") == "https://cdn.example.com")
        #expect(ContentSecurityPolicy.source(ofScript: "http://[::1]:8080/hls.js") == "http://[::1]:8080")
        for unusable in ["//cdn.example.com/hls.js", "javascript:alert(1)", "ftp://example.com/hls.js", "hls.js", ""] {
            #expect(ContentSecurityPolicy.source(ofScript: unusable) == nil, "\(unusable)")
        }
        let test = try TestLibrary()
        let refused = try await ExternalTool.run(VODBinary.path, [
            "serve", "--port", "0", "--database", test.databasePath, "--media-dir", test.mediaDirectory,
            "--output-dir", test.outputDirectory, "--player-script-url", "javascript:alert(1)",
        ], timeout: 30)
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("--player-script-url must be an http or https URL"), "\(refused.standardError)")
    }
}
