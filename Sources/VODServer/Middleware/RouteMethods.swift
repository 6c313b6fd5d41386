import Hummingbird
import Synchronization

/// The methods each of the router's paths answers, for telling "no such path" (404) from "not with this method"
/// (405, with `Allow`), which Hummingbird's router does not tell apart.
///
/// Filled once the routes are added, after the middleware that reads it was.
final class RouteMethods: Sendable {
    private let routes = Mutex<[(path: RouterPath, method: HTTPRequest.Method)]>([])

    /// Takes the router's routes, once they are all added.
    func register(_ routes: [Router<VODRequestContext>.RouteDescription]) {
        self.routes.withLock { $0 = routes.map { ($0.path, $0.method) } }
    }

    /// The methods of every route whose path matches `path`, sorted; none for a request target that is not a
    /// path (`*`), nor for a path with an empty segment (`/api/media//retry`), which names no resource even
    /// though the router reads it without the gap.
    func methods(for path: String) -> [String] {
        guard path.hasPrefix("/") else { return [] }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.last?.isEmpty == true { segments = segments.dropLast() }
        guard !segments.contains(where: \.isEmpty) else { return [] }
        return Set(routes.withLock { routes in routes.filter { Self.matches($0.path, segments) }.map(\.method.rawValue) }).sorted()
    }

    private static func matches(_ route: RouterPath, _ segments: ArraySlice<Substring>) -> Bool {
        var index = segments.startIndex
        for component in route.components {
            if component.description == "**" { return index < segments.endIndex }
            guard index < segments.endIndex, component ~= segments[index] else { return false }
            index += 1
        }
        return index == segments.endIndex
    }
}
