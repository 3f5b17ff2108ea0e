import Hummingbird
import Logging
import MarketCore

/// Builds the market's HTTP application around one MarketService.
public enum MarketServer {
    public static func router(service: MarketService) -> Router<BasicRequestContext> {
        // Old clients send `/Items/2`, `//api/products` and `/api/products/`: paths are matched
        // case-insensitively, and Hummingbird already ignores empty segments.
        let router = Router(options: [.caseInsensitive, .autoGenerateHeadEndpoints])
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: APIErrorMiddleware())
        APIv2Controller(service: service).addRoutes(to: router)
        ImageController(service: service).addRoutes(to: router)
        return router
    }

    public static func application(
        service: MarketService, host: String, port: Int, logger: Logger
    ) -> some ApplicationProtocol {
        Application(
            router: router(service: service),
            configuration: .init(address: .hostname(host, port: port), serverName: "OpenMarket"),
            logger: logger)
    }
}
