/// Runs edits of the same item one after another, and edits of different items side by side: two caption
/// uploads to one title must not both rewrite its master from the same old list.
actor SerialEdits {
    private var tails: [Int64: Task<Void, Never>] = [:]

    /// Runs `edit` once every earlier edit of `id` has finished.
    func run<Result: Sendable>(_ id: Int64, _ edit: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let previous = tails[id]
        let task = Task {
            await previous?.value
            return try await edit()
        }
        let tail = Task { _ = try? await task.value }
        tails[id] = tail
        defer { if tails[id] == tail { tails[id] = nil } }
        return try await task.value
    }
}
