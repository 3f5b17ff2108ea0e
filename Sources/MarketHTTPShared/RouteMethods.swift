import HTTPTypes
import Hummingbird
import Synchronization

/// Which methods the market's routes take, learned from the router once they are added, so that a
/// method an address does not take is answered 405 with an `Allow` header rather than 404.
package final class RouteMethods: Sendable {
    private let routes = Mutex<[(segments: [Substring], method: HTTPRequest.Method)]>([])

    package init() {}

    package func learn<Context>(_ router: Router<Context>) {
        let learned = router.routes.map { route in
            (segments: route.path.description.lowercased().split(separator: "/"), method: route.method)
        }
        routes.withLock { $0 = learned }
    }

    /// The methods some route takes at `path`, matched as the router matches: case-insensitively,
    /// empty segments ignored, a `{parameter}` standing for any one segment, but only where no
    /// route has that very segment (the router tries the literal first and never backtracks, so
    /// `DELETE /api/products/1/secret` is not `/api/products/{id}/{product_secret}`).
    package func allowed(at path: String) -> [HTTPRequest.Method] {
        let asked = path.lowercased().split(separator: "/")
        var candidates = routes.withLock { $0 }.filter { $0.segments.count == asked.count }
        for (index, segment) in asked.enumerated() {
            let literal = candidates.filter { $0.segments[index] == segment }
            candidates =
                literal.isEmpty
                ? candidates.filter { $0.segments[index].hasPrefix("{") || $0.segments[index].hasPrefix(":") } : literal
        }
        let methods = candidates.map(\.method)
        return methods.reduce(into: []) { unique, method in if !unique.contains(method) { unique.append(method) } }
    }
}
