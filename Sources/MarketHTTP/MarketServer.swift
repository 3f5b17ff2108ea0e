import Hummingbird
import HummingbirdCore
import Logging
import MarketAPIv1
import MarketAPIv2
import MarketCore
import MarketHTTPShared
import MarketInspector
import MarketModel
import MarketPages
import MarketStorefront
import NIOCore
import Prometheus

/// Builds the market's HTTP application around one MarketService; middleware runs in the order it is added below.
public enum MarketServer {
    /// `flavor` answers 2022 requests whose Host names neither of that API's hosts. `sessionKey`
    /// seals the pages' cookies; markets that share a store share it too.
    /// `fillWithDemo` fills an emptied market with the demo catalogue, for the operator's reset.
    public static func router(
        service: MarketService, records: RequestRecords, faults: FaultInjector, flavor: V2Flavor = .marketTraining,
        teamPorts: TeamPorts? = nil, listensOnNetwork: Bool = false, sessionKey: SessionKey, limits: ServerLimits,
        metrics: PrometheusCollectorRegistry,
        fillWithDemo: @escaping @Sendable () async throws -> Int
    ) throws -> Router<MarketRequestContext> {
        let teamAddresses = TeamAddresses(ports: teamPorts, listensOnNetwork: listensOnNetwork)
        let website = try Website(
            service: service, faults: faults, teamAddresses: teamAddresses, sessionKey: sessionKey,
            resources: [Storefront.resources, InspectorPages.resources].compactMap { $0 })
        let inspectorPages = InspectorPages(website: website, records: records)
        let storefront = Storefront(
            website: website, fillWithDemo: fillWithDemo, anonymousRequests: inspectorPages.anonymousRequests,
            classBoard: inspectorPages.classBoard)
        let cache = ResponseCache(capacity: limits.responseCacheBytes)
        // Apps send `/Items/2`, `//api/products` and `/api/products/`: paths are matched case-insensitively, and
        // Hummingbird already ignores empty segments.
        let router = Router(
            context: MarketRequestContext.self, options: [.caseInsensitive, .autoGenerateHeadEndpoints])
        let methods = RouteMethods()
        router.add(middleware: RequestLogMiddleware())
        // Every answer is taken as the type it says it is (`nosniff`), and pages load and post only
        // our own scripts, styles, pictures and forms.
        router.add(
            middleware: ContentSecurityMiddleware(contentSecurityPolicy: [
                .defaultSrc(.self),
                .imgSrc(.self, .scheme(.init(rawValue: "blob:")), .scheme(.init(rawValue: "data:"))), .objectSrc(.none),
                .baseURI(.none), .formAction(.self), .frameAncestors(.none),
            ]))
        router.add(middleware: CompressionMiddleware())
        router.add(middleware: InspectorMiddleware(service: service, records: records, faults: faults))
        router.add(middleware: APIErrorMiddleware(pages: website, methods: methods))
        router.add(middleware: BodyBudgetMiddleware(budget: limits.bodies))
        APIv2Controller(service: service, defaultFlavor: flavor).addRoutes(to: router, cache: cache)
        APIv1Controller(service: service).addRoutes(to: router, cache: cache)
        ImageController(service: service).addRoutes(to: router)
        InspectorController(service: service, records: records, faults: faults, teamAddresses: teamAddresses)
            .addRoutes(to: router)
        OperationsController(service: service, limits: limits, registry: metrics).addRoutes(to: router)
        storefront.addRoutes(to: router, cache: cache)
        inspectorPages.addRoutes(to: router)
        website.addAssetRoute(to: router)
        methods.learn(router)
        return router
    }

    /// `router` behind the team addresses: `/teams/<vendor_id>/…`, or a team's own port, is routed as `/…` for that
    /// vendor; with `plainAddressTeam` the market's own address is that vendor's too.
    public static func responder(
        router: Router<MarketRequestContext>, service: MarketService, teamPorts: TeamPorts? = nil,
        plainAddressTeam: Vendor? = nil
    ) -> some HTTPResponder<MarketRequestContext> {
        TeamAddressResponder(
            router: router.buildResponder(), service: service, teamPorts: teamPorts,
            plainAddressTeam: plainAddressTeam?.id)
    }

    /// `responder` served on `host`:`port` (0 picks a free port); `onListening` learns the port.
    /// Each connection passes the connection limit and `100 Continue` on its way to the router.
    public static func application(
        responder: some HTTPResponder<MarketRequestContext>, host: String, port: Int, limits: ServerLimits,
        logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: responder,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ConnectionGate(limit: limits.connections), ExpectContinue()],
                    idleTimeout: TimeAmount(limits.idleTimeout),
                    httpDecoderConfiguration: .init(
                        maxHeaderFieldSize: ServerLimits.headBytes, maxHeaderListSize: ServerLimits.headBytes))),
            configuration: .init(address: .hostname(host, port: port), serverName: "OpenMarket"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// Takes a team address off each request's path before routing, as a proxy mounting an app under a path does:
/// `/teams/82/api/products` is routed as `/api/products`, with the vendor_id in the context (for the inspector and
/// the faults) and `X-Forwarded-Prefix: /teams/82` in the head (for the picture URLs and the response cache's key).
/// A request to a team's own port, or with `plainAddressTeam` to the market's own address, is that team's as it is.
struct TeamAddressResponder<Router: HTTPResponder<MarketRequestContext>>: HTTPResponder {
    let router: Router
    let service: MarketService
    let teamPorts: TeamPorts?
    let plainAddressTeam: Int64?

    func respond(to request: Request, context: MarketRequestContext) async throws -> Response {
        var context = context
        var head = request.head
        if let path = head.path, let (vendorID, rest) = TeamAddress.split(path[...]) {
            head.path = rest.first == "/" ? String(rest) : "/" + rest
            head.headerFields[.forwardedPrefix] = TeamAddress.path(of: vendorID)
            context.team = vendorID
        } else {
            context.team = await portTeam(of: request) ?? plainAddressTeam(of: request)
            guard head.headerFields[.forwardedPrefix] != nil else {
                return try await router.respond(to: request, context: context)
            }
            head.headerFields[.forwardedPrefix] = nil
        }
        return try await router.respond(to: Request(head: head, body: request.body), context: context)
    }

    /// The team whose own port the request's host names (as a proxy in front forwarded it). A store that cannot be
    /// read leaves the request no team's: the route meets the same store and answers for it.
    private func portTeam(of request: Request) async -> Int64? {
        guard let teamPorts, let host = request.headers[.forwardedHost] ?? request.head.authority,
            let colon = host.lastIndex(of: ":"), let port = Int(host[host.index(after: colon)...]),
            let seat = teamPorts.seat(atPort: port)
        else { return nil }
        return try? await service.team(inSeat: seat)?.id
    }

    private func plainAddressTeam(of request: Request) -> Int64? {
        guard let plainAddressTeam else { return nil }
        return AppPaths.isAppRequest(AppPaths.firstSegment(of: request.uri.path)) ? plainAddressTeam : nil
    }
}
