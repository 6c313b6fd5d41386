extension Sequence {
    /// The results of `transform` on each element, in order, one after the other: `map` for a transform that
    /// awaits, such as one that runs an external tool.
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
