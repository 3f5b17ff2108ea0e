import Hummingbird
import Logging
import MarketCore
import NIOCore

/// Builds the market's HTTP application around one MarketService.
public enum MarketServer {
    public static func router(service: MarketService, flavor: V2Flavor = .marketTraining) -> Router<BasicRequestContext>
    {
        // Old clients send `/Items/2`, `//api/products` and `/api/products/`: paths are matched
        // case-insensitively, and Hummingbird already ignores empty segments.
        let router = Router(options: [.caseInsensitive, .autoGenerateHeadEndpoints])
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: APIErrorMiddleware())
        APIv2Controller(service: service, defaultFlavor: flavor).addRoutes(to: router)
        APIv1Controller(service: service).addRoutes(to: router)
        ImageController(service: service).addRoutes(to: router)
        return router
    }

    /// The application on `host`:`port` (0 picks a free port); `onListening` learns the port.
    /// `flavor` answers 2022 requests whose Host names neither of that API's hosts.
    public static func application(
        service: MarketService, host: String, port: Int, flavor: V2Flavor = .marketTraining, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(service: service, flavor: flavor),
            configuration: .init(address: .hostname(host, port: port), serverName: "OpenMarket"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
