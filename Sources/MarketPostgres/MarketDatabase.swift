import Logging
import MarketCore
import Metrics
import PostgresNIO

/// The pool of connections to the market's database, and the one place that maps its failures: a lost
/// or refusing database is `MarketError.unavailable` within `deadline`, never a hang.
struct MarketDatabase: Sendable {
    let client: PostgresClient
    let location: PostgresLocation
    let logger: Logger
    /// How long a request may wait for a connection and its queries.
    let deadline: Duration

    /// Runs `body` on a connection of the pool; each query commits on its own.
    func read<T: Sendable>(_ body: @escaping @Sendable (DatabaseSession) async throws -> T) async throws -> T {
        try await guarded(MarketTimers.databaseReads) { [client, logger] in
            try await client.withConnection { connection in
                try await body(DatabaseSession(connection: connection, logger: logger))
            }
        }
    }

    /// Runs `body` in one transaction: it commits when `body` returns, and rolls back when it throws.
    /// Returns once every server watching the catalogue holds what it committed.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (DatabaseSession) async throws -> T) async throws -> T {
        let (result, version) = try await guarded(MarketTimers.databaseWrites) { [client, logger] in
            do {
                return try await client.withTransaction(logger: logger) { connection in
                    let session = DatabaseSession(connection: connection, logger: logger)
                    let result = try await body(session)
                    return (result, try await session.single(CatalogueVersionQuery()))
                }
            } catch let error as PostgresTransactionError {
                throw Self.firstCause(of: error)
            }
        }
        try await waitUntilWatchersHold(version)
        return result
    }

    /// Returns once every server whose lease runs (`CatalogueWatch`) holds `version`; one that stopped
    /// answering is waited for until its lease runs out. Their word comes through the database, so this polls.
    private func waitUntilWatchersHold(_ version: Int64) async throws {
        var pause = Duration.microseconds(200)
        while try await read({ session in
            try await session.single(
                "SELECT EXISTS (SELECT FROM catalogue_watcher WHERE lease_until > now() AND seen_version < \(version))",
                as: Bool.self)
        }) {
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    func checkWritable() async throws {
        let writable = try await read { session in
            try await session.single("SELECT current_setting('transaction_read_only') = 'off'", as: Bool.self)
        }
        guard writable else { throw MarketError.unavailable(.databaseReadOnly) }
    }

    private func guarded<T: Sendable>(
        _ timer: Metrics.Timer, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let work = Task { try await timer.measure { try await operation() } }
        // A timer on an event loop rather than a sleeping task: one task less for every query.
        let alarm = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(
            in: .nanoseconds(Int64(deadline / .nanoseconds(1)))
        ) { work.cancel() }
        defer { alarm.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch let error as PSQLError where Self.isUnavailability(error) {
            throw unavailable(Self.explain(error))
        } catch  where work.isCancelled {
            throw unavailable("no answer within \(deadline)")
        }
    }

    private func unavailable(_ reason: String) -> MarketError {
        logger.error("the database at \(location) is unavailable: \(reason)")
        return MarketError.unavailable(.databaseUnreachable)
    }

    /// Whether the database cannot serve (lost, refusing, shutting down, out of space) rather than a query being wrong.
    static func isUnavailability(_ error: PSQLError) -> Bool {
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            // 08: connection exceptions, 53: insufficient resources (disk full), 57P: shutting
            // down or not yet started, 55000: a database not accepting connections.
            return state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P") || state == "55000"
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .queryCancelled:
            return true
        default: return false
        }
    }

    /// What went wrong first in a transaction: the rule that refused the change, or the database.
    static func firstCause(of error: PostgresTransactionError) -> any Error {
        error.beginError ?? error.closureError ?? error.commitError ?? error
    }

    /// What went wrong, in one line, without the query or its values.
    static func explain(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}
