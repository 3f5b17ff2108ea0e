import Foundation
import Logging
import MarketApp
import MarketPostgres
import PostgresNIO

/// Fresh, empty storage for one test: a temporary folder, or a new database in the throwaway
/// PostgreSQL cluster that `scripts/test` starts (its URL in OPENMARKET_TEST_POSTGRES).
public enum TestStorage {
    public enum Kind: String, Sendable, CaseIterable {
        case sqlite
        case postgres
    }

    static let logger = {
        var logger = Logger(label: "test-storage")
        logger.logLevel = .warning
        return logger
    }()

    /// The test cluster's administrator URL; a test that needs PostgreSQL fails without it.
    public static func postgresAdminURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["OPENMARKET_TEST_POSTGRES"], !url.isEmpty else {
            throw RawHTTPError(
                "no test PostgreSQL: run the tests with scripts/test, which starts one, or set OPENMARKET_TEST_POSTGRES"
            )
        }
        return url
    }

    /// A new, empty database in the test cluster, and its URL.
    public static func createDatabase() async throws -> String {
        let admin = try postgresAdminURL()
        let name = "market_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await administer(admin, "CREATE DATABASE \(name)")
        var components = URLComponents(string: admin)!
        components.path = "/" + name
        return components.string!
    }

    /// Drops a database made by `createDatabase`, ending any connection still open to it.
    public static func dropDatabase(_ url: String) async throws {
        let name = try PostgresLocation(url: url).database
        try await administer(try postgresAdminURL(), "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one statement as the cluster's administrator.
    public static func administer(_ adminURL: String, _ sql: String) async throws {
        _ = try await count(adminURL, sql)
    }

    /// Runs one statement as the cluster's administrator; the number its first row holds (0 without a row).
    public static func count(_ adminURL: String, _ sql: String) async throws -> Int {
        let connection = try await PostgresConnection.connect(
            configuration: try PostgresLocation(url: adminURL).connectionConfiguration(), id: 1, logger: logger)
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            let first = try await rows.first { _ in true }
            try await connection.close()
            return try first.map { try $0.decode(Int.self) } ?? 0
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs `body` while a transaction of the administrator's holds the locks `lock` takes.
    public static func holding<T: Sendable>(
        _ adminURL: String, _ lock: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        let connection = try await PostgresConnection.connect(
            configuration: try PostgresLocation(url: adminURL).connectionConfiguration(), id: 1, logger: logger)
        defer { Task { try? await connection.close() } }
        try await connection.query("BEGIN", logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: lock), logger: logger)
        let result = try await body()
        try await connection.query("ROLLBACK", logger: logger)
        return result
    }

    /// The configuration of a fresh, empty market of `kind`, and what removes it afterwards.
    public static func configuration(_ kind: Kind) async throws -> (
        MarketConfiguration, cleanUp: @Sendable () async -> Void
    ) {
        switch kind {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "openmarket-test-\(UUID().uuidString)")
            return (MarketConfiguration(storage: .folder(folder)), { try? FileManager.default.removeItem(at: folder) })
        case .postgres:
            let url = try await createDatabase()
            var configuration = MarketConfiguration(storage: .postgres(url: url))
            // A query that waits its turn among a whole suite on two cores is not the lost database the 5 s
            // deadline answers 503 for (PostgresCommandTests holds that one).
            configuration.databaseDeadline = .seconds(60)
            return (configuration, { try? await dropDatabase(url) })
        }
    }

    /// Runs `body` with a fresh, empty market of `kind` (bcrypt at its lowest cost) and removes it.
    public static func withMarket<T: Sendable>(
        _ kind: Kind, isolation: isolated (any Actor)? = #isolation, _ body: (Market) async throws -> T
    ) async throws -> T {
        var (configuration, cleanUp) = try await configuration(kind)
        configuration.secretCost = 4
        configuration.logLevel = .warning
        do {
            let market = try await Market.open(configuration)
            let result = try await market.run { try await body(market) }
            await cleanUp()
            return result
        } catch {
            await cleanUp()
            throw error
        }
    }
}
