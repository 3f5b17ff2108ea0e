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

/// Builds the market's HTTP application around one MarketService.
public enum MarketServer {
    /// `sessionKey` seals the storefront's cookies; markets that share a store share it too.
    /// `restock` fills an emptied market with the demo catalogue, for the operator's reset.
    public static func router(
        service: MarketService, rehearsals: Rehearsals, flavor: V2Flavor = .marketTraining, sessionKey: SessionKey,
        limits: ServerLimits, metrics: PrometheusCollectorRegistry, restock: @escaping @Sendable () async throws -> Int
    ) throws -> Router<MarketRequestContext> {
        router(
            service: service, rehearsals: rehearsals, flavor: flavor,
            storefront: try Storefront(
                service: service, rehearsals: rehearsals, sessionKey: sessionKey, restock: restock),
            limits: limits, metrics: metrics, answers: AnswerCache(capacity: limits.answerCacheBytes),
            meters: RequestMeters())
    }

    static func router(
        service: MarketService, rehearsals: Rehearsals, flavor: V2Flavor, storefront: Storefront, limits: ServerLimits,
        metrics: PrometheusCollectorRegistry, answers: AnswerCache, meters: RequestMeters
    ) -> Router<MarketRequestContext> {
        // Old clients send `/Items/2`, `//api/products` and `/api/products/`: paths are matched
        // case-insensitively, and Hummingbird already ignores empty segments.
        let router = Router(
            context: MarketRequestContext.self, options: [.caseInsensitive, .autoGenerateHeadEndpoints])
        let methods = RouteMethods()
        router.add(middleware: RequestMetricsMiddleware(meters: meters))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: NoSniffMiddleware())
        router.add(middleware: CompressionMiddleware())
        router.add(middleware: ClientAddressMiddleware())
        router.add(middleware: InspectorMiddleware(rehearsals: rehearsals))
        router.add(middleware: APIErrorMiddleware(pages: storefront.problemPages, methods: methods))
        router.add(middleware: BodyBudgetMiddleware(budget: limits.bodies))
        APIv2Controller(service: service, defaultFlavor: flavor).addRoutes(to: router, answers: answers)
        APIv1Controller(service: service).addRoutes(to: router, answers: answers)
        ImageController(service: service).addRoutes(to: router)
        InspectorController(service: service, rehearsals: rehearsals).addRoutes(to: router)
        OperationsController(service: service, limits: limits, registry: metrics).addRoutes(to: router)
        storefront.addRoutes(to: router, answers: answers)
        methods.learn(router)
        return router
    }

    /// The application on `host`:`port` (0 picks a free port); `onListening` learns the port.
    /// `flavor` answers 2022 requests whose Host names neither of that API's hosts. Each connection
    /// passes the connection limit, the front desk (which answers what it can without the router)
    /// and `100 Continue` before the router.
    public static func application(
        service: MarketService, rehearsals: Rehearsals, host: String, port: Int, flavor: V2Flavor = .marketTraining,
        sessionKey: SessionKey, limits: ServerLimits, metrics: PrometheusCollectorRegistry, logger: Logger,
        restock: @escaping @Sendable () async throws -> Int,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let connections = limits.connections
        let answers = AnswerCache(capacity: limits.answerCacheBytes)
        let meters = RequestMeters()
        let serverName = "OpenMarket"
        let storefront = try Storefront(
            service: service, rehearsals: rehearsals, sessionKey: sessionKey, restock: restock)
        let desk = FrontDesk(
            service: service, answers: answers,
            reads: APIv2Controller<MarketRequestContext>(service: service, defaultFlavor: flavor).deskReads
                + APIv1Controller<MarketRequestContext>(service: service).deskReads + storefront.deskReads,
            rehearsals: rehearsals, meters: meters,
            noteRead: { head, status, started in
                AnonymousReads.note(head, status: status.code, started: started, rehearsals: rehearsals, logger: logger)
            },
            logger: logger, serverName: serverName)
        let idleTimeout = limits.idleTimeout
        return Application(
            router: router(
                service: service, rehearsals: rehearsals, flavor: flavor, storefront: storefront, limits: limits,
                metrics: metrics, answers: answers, meters: meters),
            server: HTTPServerBuilder { responder in
                MarketChannel(responder: responder, idleTimeout: idleTimeout) {
                    [connections.gate(), FrontDeskHandler(desk: desk), ExpectContinue()]
                }
            },
            configuration: .init(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// What one server lets its clients hold: connections, request bodies in memory, and time to send
/// a request head; and the memory it keeps answers in.
public struct ServerLimits: Sendable {
    public var connections: ConnectionLimit
    public var bodies: BodyBudget
    public var idleTimeout: Duration
    public var answerCacheBytes: Int

    public init(connections: ConnectionLimit, bodies: BodyBudget, idleTimeout: Duration, answerCacheBytes: Int) {
        self.connections = connections
        self.bodies = bodies
        self.idleTimeout = idleTimeout
        self.answerCacheBytes = answerCacheBytes
    }
}
