import Foundation
import Logging
import MarketCore
import MarketDemo
import MarketHTTP
import MarketImaging
import MarketModel
import MarketSQLite
import ServiceLifecycle

@_exported import enum MarketHTTP.V2Flavor

/// A whole market for one test: a fresh data folder with a real SQLite file and image files, the
/// real image pipeline, and the real HTTP server on a free port of 127.0.0.1. The reference apps'
/// vendors are registered with the credentials those apps hard-code.
public struct TestMarket: Sendable {
    public let directory: URL
    public let service: MarketService
    public let images: FileImageStore
    public let store: SQLiteMarketStore
    public var port = 0

    public static let papri = DemoCatalogue.vendors[0]
    public static let judy = DemoCatalogue.vendors[1]
    public static let nala = DemoCatalogue.vendors[2]

    /// A market with its files but no server.
    public init(openRegistration: Bool = false) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmarket-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteMarketStore(path: directory.appendingPathComponent("market.sqlite").path)
        images = try FileImageStore(root: directory.appendingPathComponent("images"))
        // bcrypt's lowest cost keeps the suite fast; the cost is a parameter, not a different code path.
        service = MarketService(
            store: store, images: images, imageProcessor: VipsImageProcessor(), hasher: SecretHasher(cost: 4),
            openRegistration: openRegistration)
        for vendor in DemoCatalogue.vendors {
            _ = try await service.registerVendor(
                name: vendor.name, identifier: vendor.identifier, secret: vendor.secret)
        }
    }

    /// Runs `body` against a market whose server is listening, then shuts the server down and
    /// removes the market's files.
    public static func withServer<T: Sendable>(
        flavor: V2Flavor = .marketTraining, openRegistration: Bool = false,
        isolation: isolated (any Actor)? = #isolation, _ body: (TestMarket) async throws -> T
    ) async throws -> T {
        var market = try await TestMarket(openRegistration: openRegistration)
        defer { try? FileManager.default.removeItem(at: market.directory) }
        var logger = Logger(label: "test-market")
        logger.logLevel = .error
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let application = try MarketServer.application(
            service: market.service, host: "127.0.0.1", port: 0, flavor: flavor, sessionKey: .random(), logger: logger,
            onListening: { listening.yield($0) })
        let services = ServiceGroup(configuration: .init(services: [application], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw RawHTTPError("the server did not start") }
            market.port = port
            do {
                let result = try await body(market)
                await services.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }

    /// Sends exact request bytes.
    public func send(_ request: Data) async throws -> RawResponse {
        try await RawHTTP.send(request, port: port)
    }

    /// Sends a request with the usual framing: Host and Content-Length are added, the rest is as given.
    public func send(
        _ method: String, _ path: String, headers: [String] = [], body: Data = Data()
    ) async throws -> RawResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty || ["POST", "PATCH", "PUT"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        return try await send(wire("\(head)\r\n", WirePiece(body)))
    }

    // MARK: What the store holds

    public func productCount() async throws -> Int {
        try await service.products(.init(number: 1, itemsPerPage: 1)).totalCount
    }

    public func imageFileCount() throws -> Int {
        try images.keys().count
    }

    /// Creates a product directly through the service, for tests about something else.
    @discardableResult
    public func addProduct(
        _ name: String, description: String = "A test product.", price: Int64 = 1000, discount: Int64 = 0,
        imageCount: Int = 1, by vendor: DemoCatalogue.DemoVendor = TestMarket.papri
    ) async throws -> Product {
        let pictures = try (0..<imageCount).map { try TestImages.jpeg(dots: $0 + 1) }
        return try await service.createProduct(
            ProductDraft(
                name: name, description: description, currency: .krw, price: price, discount: discount, stock: 5),
            images: pictures, by: VendorCredentials(identifier: vendor.identifier, secret: vendor.secret))
    }
}
