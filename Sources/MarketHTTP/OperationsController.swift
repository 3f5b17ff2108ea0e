import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import Metrics
import Prometheus

/// What operators ask a server: `/metrics` in Prometheus' text format, and `/readyz`, whether it can serve now (its
/// database answers, pictures can be stored). `/healthChecker` stays the apps' own.
struct OperationsController<Context: RequestContext>: Sendable {
    let service: MarketService
    let limits: ServerLimits
    let registry: PrometheusCollectorRegistry

    func addRoutes(to router: Router<Context>) {
        router.get("metrics", use: metrics)
        router.get("readyz", use: readiness)
        router.get("openapi.json", use: openAPI)
    }

    @Sendable func openAPI(_ request: Request, context: Context) async throws -> Response {
        guard let json = openAPIDocument else { throw HTTPError(.notFound) }
        return Response(status: .ok, headers: JSONResponse.headers, body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }

    @Sendable func metrics(_ request: Request, context: Context) async throws -> Response {
        Gauge(label: "openmarket_open_connections").record(limits.connections.open)
        Gauge(label: "openmarket_request_body_bytes_in_flight").record(limits.bodies.inFlight)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }

    @Sendable func readiness(_ request: Request, context: Context) async throws -> Response {
        let readiness = await service.readiness()
        return try JSONResponse.make(
            ReadinessBody(
                ready: readiness.isReady, database: readiness.database ?? "ok", images: readiness.images ?? "ok"),
            status: readiness.isReady ? .ok : .serviceUnavailable)
    }

    private struct ReadinessBody: Encodable {
        var ready: Bool
        var database: String
        var images: String
    }
}

/// The OpenAPI 3 document of both dialects, as they answer; read once.
private let openAPIDocument = Bundle.module.url(forResource: "openapi", withExtension: "json").flatMap {
    try? Data(contentsOf: $0)
}
