import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import Metrics
import NIOCore
import Synchronization

/// Each request's log line and metrics, once its response is made. The line masks every path segment shaped like a
/// UUID, whatever route it took: delete secrets are UUIDs in several spellings, and a log is no place for a key.
/// The metrics keep Hummingbird's own names and labels, but not its `MetricsMiddleware`: that wraps the body in a
/// closure, which takes every response off Hummingbird's one write of head, body and end.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    private let meters = RequestMeters()

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let active = meters.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let took = ContinuousClock.now - start
            let meters = self.meters.series(context.endpointPath ?? "Unknown", request.method, response.status)
            meters.requests.increment()
            meters.duration.recordNanoseconds(Int64(took / .nanoseconds(1)))
            let tenths = Int(took / .microseconds(100))
            // The source named: swift-log would otherwise work it out from the file's name on every line.
            context.logger.info(
                "\(request.method) \(request.uri.path.maskingSecrets(sentWith: request.method)) \(response.status.code) \(tenths / 10).\(tenths % 10)ms",
                source: "MarketHTTP")
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let meters = self.meters.series(context.endpointPath ?? "NotFound", request.method, status)
            meters.requests.increment()
            meters.errors.increment()
            throw error
        }
    }
}

/// Each series made once and kept: swift-metrics' factories look labels up on every call.
private final class RequestMeters: Sendable {
    private struct Series: Hashable {
        var route: String
        var method: HTTPRequest.Method
        var status: Int
    }

    struct Meters: Sendable {
        var requests: Counter
        var errors: Counter
        var duration: Metrics.Timer
    }

    private let made = Mutex<[Series: Meters]>([:])
    private let activeMeters = Mutex<[HTTPRequest.Method: Meter]>([:])

    func active(_ method: HTTPRequest.Method) -> Meter {
        activeMeters.withLock { active in
            if let meter = active[method] { return meter }
            let meter = Meter(
                label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            active[method] = meter
            return meter
        }
    }

    func series(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Meters {
        let key = Series(route: route, method: method, status: status.code)
        return made.withLock { series in
            if let meters = series[key] { return meters }
            let labels = [("http.route", key.route), ("http.request.method", key.method.rawValue)]
            let status = String(key.status)
            let meters = Meters(
                requests: Counter(label: "hb.requests", dimensions: labels + [("http.response.status_code", status)]),
                errors: Counter(label: "hb.request.errors", dimensions: labels + [("error.type", status)]),
                duration: Metrics.Timer(
                    label: "http.server.request.duration", dimensions: labels + [("http.response.status_code", status)],
                    preferredDisplayUnit: .seconds))
            series[key] = meters
            return meters
        }
    }
}

/// Sends text (pages, styles, scripts, JSON) gzip-compressed to clients that accept it, which is every browser and
/// every app's URLSession. Pictures are compressed already and go as they are.
struct CompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Below this, the gzip header and the work cost more than they save.
    static var smallest: Int { 1024 }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard Self.isText(response.headers[.contentType]), response.headers[.contentEncoding] == nil else {
            return response
        }
        response.headers[.vary] = response.headers[.vary].map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
        guard request.method != .head, Self.acceptsGzip(request.headers[.acceptEncoding]),
            let length = response.body.contentLength, length >= Self.smallest,
            var body = try? await BodyCollector.bytes(of: response), let compressed = try? body.compress(with: .gzip())
        else { return response }
        response.headers[.contentEncoding] = "gzip"
        // The compressed bytes differ from the tagged ones, so the tag stays only as a weak validator.
        response.headers[.eTag] = response.headers[.eTag].map { $0.hasPrefix("W/") ? $0 : "W/" + $0 }
        response.headers[.contentLength] = String(compressed.readableBytes)
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    static func isText(_ contentType: String?) -> Bool {
        guard let type = contentType?.utf8 else { return false }
        return ["text/", "application/json", "application/problem+json"].contains { type.caselessStarts(with: $0.utf8) }
    }

    /// `gzip` named with a weight above zero (or `*`).
    static func acceptsGzip(_ header: String?) -> Bool {
        weightedChoices(header).first { $0.name == "gzip" || $0.name == "*" }.map { $0.weight > 0 } ?? false
    }
}

/// Holds each body's bytes against the server's bound on bodies in flight, before the route reads it.
struct BodyBudgetMiddleware<Context: RequestContext>: RouterMiddleware {
    let budget: BodyBudget

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let bytes = Self.bytesToHold(request)
        guard bytes > 0 else { return try await next(request, context) }
        guard budget.reserve(bytes) else { throw MarketError.unavailable(.tooManyUploads, retryAfter: 2) }
        defer { budget.release(bytes) }
        return try await next(request, context)
    }

    /// What the body will take at most: its declared length, or the largest body the market reads when its total is
    /// unknown. A body over that limit is refused by its length alone and never read, so it holds nothing.
    static func bytesToHold(_ request: Request) -> Int {
        let maximum = Request.maximumAPIBodyBytes
        if let length = request.declaredLength { return length <= maximum ? length : 0 }
        return request.headers[.transferEncoding] == nil ? 0 : maximum
    }
}
