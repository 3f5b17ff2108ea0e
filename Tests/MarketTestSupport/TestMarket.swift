import Foundation
import HummingbirdTesting
import Logging
import MarketApp
import MarketCore
import MarketDemo
import MarketHTTP
import MarketModel
import ServiceLifecycle

@_exported import enum MarketAPIv2.V2Flavor

/// A whole market for one test, built by the same composition root as `openmarket serve`: a fresh
/// data folder with a real SQLite file and image files, the real image pipeline, and the real HTTP
/// server on a free port of 127.0.0.1. The reference apps' vendors are registered with the
/// credentials those apps hard-code.
public struct TestMarket: Sendable {
    public let directory: URL
    public let market: Market
    public var port = 0
    /// Set inside `inProcess`: requests go to the router in process instead of the port.
    var client: (any TestClientProtocol)?

    public var service: MarketService { market.service }
    public var store: any MarketStore { market.store }
    public var images: any ImageStore { market.images }

    public static let papri = DemoCatalogue.vendors[0]
    public static let judy = DemoCatalogue.vendors[1]
    public static let nala = DemoCatalogue.vendors[2]

    /// A market with its files but no server.
    public init(
        flavor: V2Flavor = .marketTraining, openRegistration: Bool = false, clock: TestClock? = nil,
        configure: (inout MarketConfiguration) -> Void = { _ in }
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmarket-test-\(UUID().uuidString)")
        var configuration = MarketConfiguration(storage: .folder(directory))
        // bcrypt's lowest cost keeps the suite fast; the cost is a parameter, not a different code path.
        configuration.secretCost = 4
        configuration.openRegistration = openRegistration
        configuration.flavor = flavor
        configuration.logLevel = .error
        if let clock { configuration.clock = { clock.now } }
        configure(&configuration)
        market = try await Market.open(configuration)
        for vendor in DemoCatalogue.vendors {
            _ = try await service.registerVendor(
                name: vendor.name, identifier: vendor.identifier, secret: vendor.secret)
        }
    }

    /// Runs `body` against a market whose server is listening, then shuts the server down and
    /// removes the market's files.
    public static func withServer<T: Sendable>(
        flavor: V2Flavor = .marketTraining, openRegistration: Bool = false, clock: TestClock? = nil,
        configure: @Sendable (inout MarketConfiguration) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation, _ body: (TestMarket) async throws -> T
    ) async throws -> T {
        var market = try await TestMarket(
            flavor: flavor, openRegistration: openRegistration, clock: clock, configure: configure)
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let applications = try market.market.applications(
            host: "127.0.0.1", port: 0, onListening: { listening.yield($0) })
        let services = ServiceGroup(configuration: .init(services: applications, logger: market.market.logger))
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
        if let client { return try await answerInProcess(client, method, path, headers: headers, body: body) }
        return try await MarketPeer(port: port).send(method, path, headers: headers, body: body)
    }

    // MARK: What the store holds

    public func productCount() async throws -> Int {
        try await service.products(.init(number: 1, itemsPerPage: 1)).totalCount
    }

    /// Runs the image sweep as if its grace had passed: blobs no product names go.
    @discardableResult
    public func sweepImages() async throws -> Int {
        try await service.sweepImages(unusedFor: .zero)
    }

    /// How many image blobs the market holds, used or not.
    public func imageFileCount() async throws -> Int {
        try await images.keys(unusedFor: .zero).count
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
            images: pictures, by: OwnershipProof(identifier: vendor.identifier, secret: vendor.secret))
    }
}
