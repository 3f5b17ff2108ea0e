import Hummingbird
import HummingbirdCore
import Logging
import MarketAPIv1
import MarketAPIv2
import MarketCore
import MarketHTTPShared
import MarketInspector
import MarketStorefront
import NIOCore
import Prometheus

/// Builds the market's HTTP application around one MarketService: every request goes through
/// Hummingbird's router and the middleware below, in the order they are added.
public enum MarketServer {
    /// `flavor` answers 2022 requests whose Host names neither of that API's hosts. `sessionKey`
    /// seals the storefront's cookies; markets that share a store share it too.
    /// `restock` fills an emptied market with the demo catalogue, for the operator's reset.
    public static func router(
        service: MarketService, rehearsals: Rehearsals, flavor: V2Flavor = .marketTraining, sessionKey: SessionKey,
        limits: ServerLimits, metrics: PrometheusCollectorRegistry, restock: @escaping @Sendable () async throws -> Int
    ) throws -> Router<MarketRequestContext> {
        let storefront = try Storefront(
            service: service, rehearsals: rehearsals, sessionKey: sessionKey, restock: restock)
        let cache = ResponseCache(capacity: limits.responseCacheBytes)
        // Old clients send `/Items/2`, `//api/products` and `/api/products/`: paths are matched
        // case-insensitively, and Hummingbird already ignores empty segments.
        let router = Router(
            context: MarketRequestContext.self, options: [.caseInsensitive, .autoGenerateHeadEndpoints])
        let methods = RouteMethods()
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: NoSniffMiddleware())
        router.add(middleware: CompressionMiddleware())
        router.add(middleware: ClientAddressMiddleware())
        router.add(middleware: InspectorMiddleware(rehearsals: rehearsals))
        router.add(middleware: APIErrorMiddleware(pages: storefront.problemPages, methods: methods))
        router.add(middleware: BodyBudgetMiddleware(budget: limits.bodies))
        APIv2Controller(service: service, defaultFlavor: flavor).addRoutes(to: router, cache: cache)
        APIv1Controller(service: service).addRoutes(to: router, cache: cache)
        ImageController(service: service).addRoutes(to: router)
        InspectorController(service: service, rehearsals: rehearsals).addRoutes(to: router)
        OperationsController(service: service, limits: limits, registry: metrics).addRoutes(to: router)
        storefront.addRoutes(to: router, cache: cache)
        methods.learn(router)
        return router
    }

    /// `router` served on `host`:`port` (0 picks a free port); `onListening` learns the port. Each
    /// connection passes the connection limit and `100 Continue` on its way to the router.
    public static func application(
        router: Router<MarketRequestContext>, host: String, port: Int, limits: ServerLimits, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let connections = limits.connections
        return Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [connections.gate(), ExpectContinue()],
                    idleTimeout: TimeAmount(limits.idleTimeout))),
            configuration: .init(address: .hostname(host, port: port), serverName: "OpenMarket"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// What one server lets its clients hold: connections, request bodies in memory, and time to send
/// a request head; and the memory it keeps responses in.
public struct ServerLimits: Sendable {
    public var connections: ConnectionLimit
    public var bodies: BodyBudget
    public var idleTimeout: Duration
    public var responseCacheBytes: Int

    public init(connections: ConnectionLimit, bodies: BodyBudget, idleTimeout: Duration, responseCacheBytes: Int) {
        self.connections = connections
        self.bodies = bodies
        self.idleTimeout = idleTimeout
        self.responseCacheBytes = responseCacheBytes
    }
}
