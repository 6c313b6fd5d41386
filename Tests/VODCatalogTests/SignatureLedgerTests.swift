import Foundation
import Testing
import VODCatalog

/// Used signatures, with the same assertions on every backend: each is taken once while it is valid, by any
/// connection to the catalog, and forgotten once it has expired.
@Suite(.timeLimit(.minutes(2))) struct SignatureLedgerTests {
    @Test(arguments: CatalogBackend.tested)
    func takesEachSignatureOnceUntilItExpires(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let node = try await store.open()
        let otherNode = try await store.open()
        #expect(try await !node.isSignatureUsed("a", now: 1000))
        #expect(try await node.useSignature("a", expiresAt: 1300, now: 1000))
        #expect(try await otherNode.isSignatureUsed("a", now: 1001), "another connection sees it")
        #expect(try await !otherNode.useSignature("a", expiresAt: 1300, now: 1001), "a replay, wherever it comes")
        #expect(try await otherNode.useSignature("b", expiresAt: 1400, now: 1001))
        #expect(try await !node.isSignatureUsed("a", now: 1301), "expired")
        #expect(try await node.isSignatureUsed("b", now: 1301))

        #expect(try await node.useSignature("c", expiresAt: 1700, now: 1401), "taking one prunes those that expired")
        #expect(try await node.useSignature("a", expiresAt: 1701, now: 1401), "a was forgotten")
        #expect(try await !node.isSignatureUsed("b", now: 1200), "b was forgotten too")
    }
}
