import HTTPTypes
import Hummingbird
import Metrics
import Synchronization

/// Each request's log line and metrics, once its response is made. The line: method, path,
/// status and how long it took, every path segment shaped like a UUID masked, whatever route it
/// took or missed (delete secrets are UUIDs, and reach the server in several spellings: a log is no
/// place for a key). The metrics: what `/metrics` shows, under Hummingbird's own names and labels
/// (`hb_requests`, `hb_request_errors`, `http_server_request_duration`,
/// `http_server_active_requests`). Hummingbird's `MetricsMiddleware` counts once the body is
/// written, by wrapping it in a closure, which takes every response off Hummingbird's one write of
/// head, body and end (docs/benchmarks/http-stack.md measures what that cost).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    private let kept = KeptMeters()

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let active = kept.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let took = ContinuousClock.now - start
            let meters = kept.meters(context.endpointPath ?? "Unknown", request.method, response.status)
            meters.requests.increment()
            meters.duration.recordNanoseconds(Int64(took / .nanoseconds(1)))
            let tenths = Int(took / .microseconds(100))
            // The source named: swift-log would otherwise work it out from the file's name on every line.
            context.logger.info(
                "\(request.method) \(request.uri.path.maskingSecrets) \(response.status.code) \(tenths / 10).\(tenths % 10)ms",
                source: "MarketHTTP")
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let meters = kept.meters(context.endpointPath ?? "NotFound", request.method, status)
            meters.requests.increment()
            meters.errors.increment()
            throw error
        }
    }
}

/// Each series made once and kept: swift-metrics' factories look labels up on every call.
private final class KeptMeters: Sendable {
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

    private let series = Mutex<[Series: Meters]>([:])
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

    func meters(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Meters {
        let key = Series(route: route, method: method, status: status.code)
        return series.withLock { series in
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
