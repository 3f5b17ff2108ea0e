import Foundation
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
        let tenths = (ContinuousClock.now - start) / .microseconds(100)
        context.logger.info(
            "\(request.method) \(request.uri.path.maskingSecrets) \(response.status.code) \(Int(tenths) / 10).\(Int(tenths) % 10)ms"
        )
        return response
    }

}

extension String {
    /// This path with every UUID-shaped segment (a delete secret, in any of its spellings) masked.
    package var maskingSecrets: String {
        split(separator: "/", omittingEmptySubsequences: false).map { segment in
            // A UUID has 36 characters; written with percent escapes, more.
            segment.utf8.count < 36 || UUID(uuidString: segment.removingPercentEncoding ?? String(segment)) == nil
                ? String(segment) : "•••"
        }.joined(separator: "/")
    }
}
