import Foundation
import Testing
import VODCatalog

/// Titles' encryption keys, with the same assertions on every backend: a key is kept per title, seen by every
/// connection, replaced by a later one, and deleted with its title.
@Suite(.timeLimit(.minutes(2))) struct TitleKeyStoreTests {
    @Test(arguments: CatalogBackend.tested)
    func keepsOneKeyPerTitleUntilTheTitleGoes(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let node = try await store.open()
        let otherNode = try await store.open()
        let new = NewMedia(title: "t", description: nil, sourceFileName: "t.mp4", sourcePath: "/t.mp4", sourceSize: 1,
                           duration: 1, probeJSON: nil)
        let item = try await node.insert(new)
        let other = try await node.insert(new)
        let key = Array(UInt8(0)..<16)
        #expect(try await node.encryptionKey(of: item.id) == nil, "a title is in the clear until it gets a key")
        try await node.setEncryptionKey(key, for: item.id)
        #expect(try await otherNode.encryptionKey(of: item.id) == key, "another connection sees it")
        #expect(try await otherNode.encryptionKey(of: other.id) == nil)
        let replacement = Array(repeating: UInt8(0xab), count: 16)
        try await otherNode.setEncryptionKey(replacement, for: item.id)
        #expect(try await node.encryptionKey(of: item.id) == replacement)
        _ = try await node.delete(id: item.id)
        #expect(try await otherNode.encryptionKey(of: item.id) == nil, "the key goes with its title")
        await #expect(throws: (any Error).self, "a key is 16 bytes") { try await node.setEncryptionKey([1, 2, 3], for: other.id) }
    }
}
