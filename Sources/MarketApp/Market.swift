import Foundation
import Hummingbird
import Logging
import MarketCore
import MarketDemo
import MarketHTTP
import MarketHTTPShared
import MarketImaging
import MarketModel
import MarketPostgres
import MarketSQLite
import NIOPosix
import ServiceLifecycle

/// A whole market, built from a configuration in one place: the store, the images, the service that holds every
/// rule, the session key, and the background work they need. `serve`, the other commands and the tests use it.
public struct Market: Sendable {
    public let configuration: MarketConfiguration
    public let service: MarketService
    /// The requests the inspector recorded for each vendor, and the anonymous ones for the operator.
    public let records: RequestRecords
    public let faults: FaultInjector
    public let store: any MarketStore
    public let images: any ImageStore
    public let sessionKey: SessionKey
    /// Connections, bodies in memory and head time that this market's server allows, counted live.
    public let limits: ServerLimits
    public let logger: Logger
    /// What must run while the market is used: the database's connection pool, if any.
    let connections: [any Service]
    /// What a server runs to know of changes without asking the database for each request.
    let watch: (any Service)?

    /// Opens the market's storage, creating or migrating it as needed. A database that does not
    /// answer throws an error whose description is one line saying what to check.
    public static func open(_ configuration: MarketConfiguration) async throws -> Market {
        var logger = Logger(label: "openmarket")
        logger.logLevel = configuration.logLevel
        let store: any MarketStore
        let images: any ImageStore
        let storedKey: SessionKey?
        var connections: [any Service] = []
        var watch: (any Service)?
        switch configuration.storage {
        case .folder(let folder):
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            store = try SQLiteMarketStore(path: folder.appendingPathComponent("market.sqlite").path)
            images = CachedImageStore(
                try FileImageStore(root: folder.appendingPathComponent("images", isDirectory: true)),
                capacity: configuration.imageCacheBytes)
            storedKey = try SessionKey(storedAt: folder.appendingPathComponent("session.key"))
        case .postgres(let url):
            let postgres = try await PostgresMarket.open(
                url: url, logger: logger, deadline: configuration.databaseDeadline)
            store = postgres.store
            images = CachedImageStore(postgres.images, capacity: configuration.imageCacheBytes)
            storedKey = SessionKey(bytes: postgres.sessionKey)
            connections.append(postgres.client)
            watch = postgres.watch
        }
        guard let sessionKey = configuration.sessionKey ?? storedKey else {
            throw SetupError("the session key in the database is not 32 bytes; set OPENMARKET_SESSION_KEY instead")
        }
        let service = MarketService(
            store: store, images: images, imageProcessor: VipsImageProcessor(),
            hasher: SecretHasher(cost: configuration.secretCost), openRegistration: configuration.openRegistration,
            secretThrottle: configuration.secretThrottle, now: configuration.clock)
        return Market(
            configuration: configuration, service: service,
            records: RequestRecords(
                store: store, backlogBytes: configuration.inspectorBacklogBytes, now: configuration.clock),
            faults: FaultInjector(store: store, now: configuration.clock),
            store: store, images: images, sessionKey: sessionKey,
            limits: ServerLimits(
                connections: ConnectionLimit(maximum: configuration.maximumConnections),
                bodies: BodyBudget(limit: configuration.bodyBytesInFlight),
                idleTimeout: configuration.connectionIdleTimeout, responseCacheBytes: configuration.responseCacheBytes),
            logger: logger, connections: connections, watch: watch)
    }

    /// The HTTP server on `host`:`port` (0 picks a free port), and on each configured team port; `onListening` learns
    /// the first port. With `plainAddressTeam`, the market's own address is that vendor's team address too.
    public func applications(
        host: String, port: Int, plainAddressTeam: Vendor? = nil,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> [any Service] {
        let responder = try responder(plainAddressTeam: plainAddressTeam)
        let first = MarketServer.application(
            responder: responder, host: host, port: port, limits: limits, logger: logger, onListening: onListening)
        let teams = configuration.teamPorts.flatMap { teamPorts in
            configuration.listensOnTeamPorts
                ? teamPorts.ports.map {
                    MarketServer.application(
                        responder: responder, host: host, port: $0, limits: limits, logger: logger)
                } : nil
        }
        return [first] + (teams ?? [])
    }

    /// What `application` answers requests with: the router behind the team addresses.
    public func responder(plainAddressTeam: Vendor? = nil) throws -> some HTTPResponder<MarketRequestContext> {
        MarketServer.responder(
            router: try router(), service: service, teamPorts: configuration.teamPorts,
            plainAddressTeam: plainAddressTeam)
    }

    /// Every route and middleware of the market's server, as `application` serves them.
    public func router() throws -> Router<MarketRequestContext> {
        try MarketServer.router(
            service: service, records: records, faults: faults, flavor: configuration.flavor,
            teamPorts: configuration.teamPorts, listensOnNetwork: configuration.listensOnNetwork,
            sessionKey: sessionKey, limits: limits, metrics: MarketMetrics.registry,
            fillWithDemo: { [service] in try await DemoCatalogue.fill(service) })
    }

    /// What a server runs beside its HTTP server: the sweeper that removes the image blobs nobody
    /// uses and, on PostgreSQL, the catalogue's watch.
    public var backgroundWork: [any Service] {
        let sweeper = ImageSweeper(
            service: service, interval: configuration.sweepInterval, grace: configuration.sweepGrace, logger: logger)
        return [sweeper] + (watch.map { [$0] } ?? [])
    }

    /// Runs `body` while the market's connections run: a command's work, or a server until it stops.
    public func run<T: Sendable>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        guard !connections.isEmpty else { return try await body() }
        let group = ServiceGroup(configuration: .init(services: connections, logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                let result = try await body()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

extension Market {
    /// The vendor a person names by its vendor_id, identifier or name (in any case).
    public func vendor(named name: String) async throws -> Vendor {
        let vendors = try await service.vendors()
        let key = VendorIdentifier.normalized(name)
        let named =
            vendors.first { String($0.id) == key } ?? vendors.first { $0.identifier == key }
            ?? vendors.first { $0.name.lowercased() == key }
        guard let named else { throw MarketError(.notFound, field: .identifier, .noVendor(identifier: name)) }
        return named
    }

    public func vendor(identifiedBy identifier: String) async throws -> Vendor {
        guard let vendor = try await service.vendor(.identifier(identifier)) else {
            throw MarketError(.notFound, field: .identifier, .noVendor(identifier: identifier))
        }
        return vendor
    }
}
