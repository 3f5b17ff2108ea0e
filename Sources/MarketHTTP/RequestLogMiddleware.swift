import Hummingbird
import Logging

/// One log line per request: method, path, status and how long it took. Path segments that carry a
/// secret (the `{productSecret}` of a DELETE) are masked: a log is no place for a key.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The route parameter that carries a secret, as case-insensitive routers keep it: lowercased.
    static var secretParameter: String { "{productsecret}" }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        context.logger.info(
            "\(request.method) \(Self.loggablePath(request.uri.path, route: context.endpointPath)) \(response.status.code) \(milliseconds.formatted(.number.precision(.fractionLength(1))))ms"
        )
        return response
    }

    static func loggablePath(_ path: String, route: String?) -> String {
        guard let route = route?.lowercased(), route.contains(secretParameter) else { return path }
        let template = route.split(separator: "/")
        let segments = path.split(separator: "/").enumerated().map { index, segment in
            index < template.count && template[index] == secretParameter ? "•••" : String(segment)
        }
        return "/" + segments.joined(separator: "/")
    }
}
