import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODTestSupport
@testable import VODServer

/// `GET /api/openapi.json`: the document is valid OpenAPI 3.1, names exactly the routes the router has, keeps the
/// client contract, and is served with validators.
@Suite(.timeLimit(.minutes(2))) struct OpenAPIDocumentTests {
    /// Operations served outside the router: the WebSocket upgrade of `EventsWebSocket`.
    static let servedOutsideRouter: Set<String> = ["GET \(EventsWebSocket.path)"]

    @Test(.tags(.processes), .needsExternalTools) func theDocumentIsValidOpenAPI31() async throws {
        let output = try await ExternalTool.run(OpenAPIFiles.python, ["-m", "openapi_spec_validator", OpenAPIFiles.document.path])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.hasSuffix("OK\n"), "\(output.standardOutput)")
        #expect(try OpenAPIFiles.parsed()["openapi"] as? String == "3.1.0")
    }

    /// The document cannot fall behind the router, nor describe routes that are gone.
    @Test func everyRouteIsDocumentedAndEveryOperationIsRouted() throws {
        let routed = try OpenAPIFiles.routedOperations()
        let documented = try OpenAPIFiles.operations(of: try OpenAPIFiles.parsed())
        #expect(routed.count >= 30, "\(routed.sorted())")
        #expect(routed.subtracting(documented).isEmpty, "routes missing from openapi.json: \(routed.subtracting(documented).sorted())")
        let unrouted = documented.subtracting(routed)
        #expect(unrouted.isSubset(of: Self.servedOutsideRouter), "operations no route serves: \(unrouted.sorted())")
        #expect(unrouted == ["GET /api/ws"])
    }

    /// The client contract's three endpoints, its error body and its nine keys, `"ready?"` included.
    @Test func theContractIsDocumented() throws {
        let document = try OpenAPIFiles.parsed()
        let operations = try OpenAPIFiles.operations(of: document)
        #expect(operations.isSuperset(of: ["GET /api/media", "GET /api/media/{id}", "GET /api/media/{id}/stream"]))
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let media = try #require(schemas["Media"])
        let required = try #require(media["required"] as? [String])
        #expect(Array(required.prefix(9)) == ["id", "title", "description", "status", "hls_path", "duration", "ready?", "created_at", "updated_at"])
        #expect(media["additionalProperties"] as? Bool == false)
        #expect(schemas["MediaStatus"]?["enum"] as? [String] == ["pending", "processing", "ready", "failed"])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        let stream = try #require(paths["/api/media/{id}/stream"]?["get"]?["responses"] as? [String: [String: Any]])
        let playlist = try #require(stream["200"]?["content"] as? [String: Any])
        #expect(playlist.keys.sorted() == ["application/vnd.apple.mpegurl"])
        let notReady = try #require((stream["404"]?["content"] as? [String: [String: [String: String]]])?["application/json"]?["schema"])
        #expect(notReady["$ref"] == "#/components/schemas/Error")
    }

    /// Every key the server writes for a ready title with pictures is in the schema, and every key of the schema
    /// is written: the schema is `additionalProperties: false` and requires them all.
    @Test func theMediaSchemaHasExactlyTheKeysOfTheMediaJSON() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let schemas = try #require((try OpenAPIFiles.parsed()["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let keys = Set(try #require(schemas["Media"]?["properties"] as? [String: Any]).keys)
        let required = Set(try #require(schemas["Media"]?["required"] as? [String]))
        let json = try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)", method: .get)
            return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        }
        #expect(Set(json.keys) == keys)
        #expect(required == keys)
    }

    /// Served from the bundle as committed, as JSON, revalidated with its ETag, and gzipped for clients that ask.
    @Test func theDocumentIsServedWithValidators() async throws {
        let test = try TestLibrary()
        let committed = try Data(contentsOf: OpenAPIFiles.document)
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/openapi.json", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(Data(buffer: response.body) == committed)
            let eTag = try #require(response.headers[.eTag])
            let again = try await client.execute(uri: "/api/openapi.json", method: .get, headers: [.ifNoneMatch: eTag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let gzipped = try await client.execute(uri: "/api/openapi.json", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(gzipped.body.readableBytes < committed.count / 4)
        }
    }
}
