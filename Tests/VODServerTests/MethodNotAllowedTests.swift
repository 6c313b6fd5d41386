import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODServer

/// A path the router has, asked with a method it does not take, is 405 with `Allow`; a path it does not have
/// stays 404, and a route's own 404 (no such media) is untouched.
@Suite(.timeLimit(.minutes(2))) struct MethodNotAllowedTests {
    @Test(arguments: [
        ("/api/media", HTTPRequest.Method.put, "GET, POST"),
        ("/api/media/", .put, "GET, POST"),
        ("/api/media/1", .post, "DELETE, GET, PATCH"),
        ("/api/media/1/stream/240p/index.m3u8", .delete, "GET, HEAD"),
        ("/api/openapi.json", .post, "GET"),
        ("/health", .delete, "GET"),
    ])
    func aKnownPathWithAnotherMethodIs405WithAllow(_ path: String, _ method: HTTPRequest.Method, _ allow: String) async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: path, method: method)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let body = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
            #expect(body == ["error": "\(method) is not allowed here; use \(allow)"])
        }
    }

    @Test func unknownPathsAndMissingMediaStay404() async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            for (path, method, error) in [("/api/nothing", HTTPRequest.Method.get, "Not found"), ("/api/nothing", .put, "Not found"),
                                          ("/api/media/999", .get, "Media not found"),
                                          ("/api/media//retry", .put, "Not found")] {
                let response = try await client.execute(uri: path, method: method)
                #expect(response.status == .notFound, "\(method) \(path)")
                #expect(response.headers[.allow] == nil)
                #expect(response.body.text == #"{"error":"\#(error)"}"#, "\(method) \(path)")
            }
        }
    }
}
