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
        let tenths = Int((ContinuousClock.now - start) / .microseconds(100))
        // The source named: swift-log would otherwise work it out from the file's name on every line.
        context.logger.info(
            "\(request.method) \(request.uri.path.maskingSecrets) \(response.status.code) \(tenths / 10).\(tenths % 10)ms",
            source: "MarketHTTPShared")
        return response
    }
}

extension String {
    /// This path with every UUID-shaped segment (a delete secret, in any of its spellings) masked.
    package var maskingSecrets: String {
        guard mayHoldSecret else { return self }
        return split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.mayBeUUID && UUID(uuidString: segment.removingPercentEncoding ?? String(segment)) != nil
                ? InspectedRequest.mask : String(segment)
        }.joined(separator: "/")
    }

    /// Some segment may be a UUID: most paths have none, and are not split to find out.
    private var mayHoldSecret: Bool {
        var (length, escaped) = (0, false)
        for byte in utf8 {
            if byte == UInt8(ascii: "/") {
                if Self.uuidShaped(length: length, escaped: escaped) { return true }
                (length, escaped) = (0, false)
            } else {
                length += 1
                escaped = escaped || byte == UInt8(ascii: "%")
            }
        }
        return Self.uuidShaped(length: length, escaped: escaped)
    }

    /// A UUID has 36 characters; written with percent escapes, more (and a `%`).
    fileprivate static func uuidShaped(length: Int, escaped: Bool) -> Bool {
        length == 36 || (length > 36 && escaped)
    }
}

extension Substring {
    fileprivate var mayBeUUID: Bool {
        String.uuidShaped(length: utf8.count, escaped: utf8.contains(UInt8(ascii: "%")))
    }
}
