import Foundation
import HTTPTypes
import Hummingbird

/// Which methods the market's routes take, learned from the router once they are added, so that a
/// method an address does not take is answered 405 with an `Allow` header rather than 404.
final class RouteMethods: @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [(segments: [Substring], method: HTTPRequest.Method)] = []

    func learn<Context>(_ router: Router<Context>) {
        let learned = router.routes.map { route in
            (segments: Self.segments(route.path.description.lowercased()), method: route.method)
        }
        lock.withLock { routes = learned }
    }

    /// The methods some route takes at `path`, matched as the router matches: case-insensitively,
    /// empty segments ignored, a `{parameter}` standing for any one segment.
    func allowed(at path: String) -> [HTTPRequest.Method] {
        let asked = Self.segments(path.lowercased())
        let known = lock.withLock { routes }
        let methods = known.filter { route in
            route.segments.count == asked.count
                && zip(route.segments, asked).allSatisfy { $0.hasPrefix("{") || $0.hasPrefix(":") || $0 == $1 }
        }.map(\.method)
        return methods.reduce(into: []) { unique, method in if !unique.contains(method) { unique.append(method) } }
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/")
    }
}
