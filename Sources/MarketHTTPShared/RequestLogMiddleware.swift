import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// One log line per request: method, path, status and how long it took. Every path segment shaped
/// like a UUID is masked, whatever route it took or missed: delete secrets are UUIDs, and they
/// reach the server in several spellings (`/api/products/{id}/{secret}`, `/api/products/{secret}`,
/// doubled slashes, any case, or addresses that match no route at all). A log is no place for a key.
package struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        context.logger.info(Self.line(request.method, request.uri.path, response.status, since: start))
        return response
    }

    /// The line for a request to `path` (without its query) answered with `status`.
    package static func line(
        _ method: HTTPRequest.Method, _ path: String, _ status: HTTPResponse.Status,
        since start: ContinuousClock.Instant
    ) -> Logger.Message {
        let tenths = Int((ContinuousClock.now - start) / .microseconds(100))
        return "\(method) \(path.maskingSecrets) \(status.code) \(tenths / 10).\(tenths % 10)ms"
    }
}

extension String {
    /// This path with every UUID-shaped segment (a delete secret, in any of its spellings) masked.
    package var maskingSecrets: String {
        let segments = split(separator: "/", omittingEmptySubsequences: false)
        guard segments.contains(where: \.mayBeUUID) else { return self }
        return segments.map { segment in
            segment.mayBeUUID && UUID(uuidString: segment.removingPercentEncoding ?? String(segment)) != nil
                ? "•••" : String(segment)
        }.joined(separator: "/")
    }
}

extension Substring {
    /// A UUID has 36 characters; written with percent escapes, more (and a `%`).
    fileprivate var mayBeUUID: Bool {
        let length = utf8.count
        return length == 36 || (length > 36 && utf8.contains(UInt8(ascii: "%")))
    }
}
