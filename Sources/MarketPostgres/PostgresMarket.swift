import Foundation
import Logging
import MarketCore
import PostgresNIO
import ServiceLifecycle

public struct PostgresMarket: Sendable {
    public let store: PostgresMarketStore
    public let images: PostgresImageStore
    /// Runs the connection pool; it must run (in a ServiceGroup) while the market is used.
    public let client: PostgresClient
    /// What a server runs to know the catalogue's version without asking for it (`CatalogueWatch`).
    public let watch: any Service
    /// The key that seals the storefront's cookies, the same for every server of this market.
    public let sessionKey: Data

    /// Connects once to migrate and read the session key, then prepares the pool. Throws
    /// a `SetupError` when the database does not answer, `PostgresUnprepared` when it cannot migrate.
    public static func open(
        url: String, logger: Logger, deadline: Duration = .seconds(5)
    ) async throws -> PostgresMarket {
        let location = try PostgresLocation(url: url)
        let sessionKey: Data
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try location.connectionConfiguration(), id: 1, logger: logger)
        } catch {
            let reason = MarketDatabase.explain(error)
            throw SetupError(
                "cannot open the market's database at \(location.host):\(location.port) (\(reason)); check that "
                    + "PostgreSQL is running there and that the user, password and database name in --database "
                    + "are right")
        }
        do {
            let session = DatabaseSession(connection: connection, logger: logger)
            try await PostgresSchema.migrate(session)
            sessionKey = try await SessionKeySetting.read(in: session)
        } catch {
            try? await connection.close()
            let cause = (error as? PostgresTransactionError).map(MarketDatabase.firstCause) ?? error
            throw PostgresUnprepared(
                location: location, reason: MarketDatabase.explain(cause),
                permissionDenied: (cause as? PSQLError)?.serverInfo?[.sqlState] == "42501")
        }
        try await connection.close()
        // The pool retries a lost database quietly; each refused request says so in the log.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        let client = PostgresClient(configuration: location.clientConfiguration, backgroundLogger: poolLogger)
        let database = MarketDatabase(client: client, location: location, logger: logger, deadline: deadline)
        let watch = CatalogueWatch(location: location, logger: poolLogger)
        return PostgresMarket(
            store: PostgresMarketStore(database: database, watch: watch),
            images: PostgresImageStore(database: database),
            client: client, watch: watch, sessionKey: sessionKey)
    }
}

/// The database answered but cannot hold a market: the layout could not be brought up to date.
public struct PostgresUnprepared: Error, CustomStringConvertible {
    public var location: PostgresLocation
    public var reason: String
    /// PostgreSQL refused the user something (SQLSTATE 42501): the user must own the database.
    public var permissionDenied: Bool

    public var description: String {
        "cannot prepare the market's database \(location) (\(reason))"
            + (permissionDenied ? "; the user needs to own the database (pg_trgm is created in it)" : "")
    }
}
