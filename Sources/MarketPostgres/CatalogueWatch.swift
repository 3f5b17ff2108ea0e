import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Lets a server know the catalogue's version without asking the database for every request, yet
/// never answer older than a change whose response any server has sent.
///
/// On a connection of its own, the watch listens on `catalogue_changed` and holds a lease in `catalogue_watcher`; each
/// change waits before responding until every leased watcher has its version (`MarketDatabase.transaction`). The
/// version is trusted only while the lease runs by this server's clock, which starts before the database's: a lost or
/// slow connection costs a wait of one lease, never a stale answer.
public final class CatalogueWatch: Service, Sendable {
    /// The channel that `catalogue_changed()` notifies (Migrations/08-catalogue-watchers.sql).
    static let channel = "catalogue_changed"
    public static let applicationName = "openmarket catalogue watch"
    /// How long the database counts a watcher after its last renewal, and how often it renews.
    static let lease = 2.0
    static let renewal: Duration = .milliseconds(500)
    /// Taken off the lease by the server's clock, for clocks that run at slightly different rates.
    static let margin: Duration = .milliseconds(250)

    private let state = Mutex<(version: Int64, trustedUntil: ContinuousClock.Instant?)>((0, nil))
    private let id = UUID().uuidString
    private let location: PostgresLocation
    private let logger: Logger

    init(location: PostgresLocation, logger: Logger) {
        self.location = location
        self.logger = logger
    }

    /// The catalogue's version, when this server's lease runs; nil when only the database can say.
    var version: Int64? {
        state.withLock { state in
            guard let until = state.trustedUntil, ContinuousClock.now < until else { return nil }
            return state.version
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await self.watch()
                } catch {
                    if !Task.isCancelled {
                        self.logger.warning(
                            "not watching the catalogue's changes (\(MarketDatabase.explain(error))); asking the database instead"
                        )
                    }
                }
                self.state.withLock { $0.trustedUntil = nil }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Listens and renews on one connection until it fails or the task is cancelled.
    private func watch() async throws {
        var configuration = try location.connectionConfiguration()
        configuration.options.additionalStartupParameters.append(("application_name", Self.applicationName))
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await watch(on: connection)
        } catch {
            // A server that stops must not keep changes waiting for its lease to run out.
            if Task.isCancelled, !connection.isClosed {
                _ = try? await answered { [id, logger] in
                    try await connection.query("DELETE FROM catalogue_watcher WHERE id = \(id)", logger: logger)
                }
            }
            try? await connection.close()
            throw error
        }
    }

    private func watch(on connection: PostgresConnection) async throws {
        try await connection.listen(on: Self.channel) { changes in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    for try await change in changes {
                        guard let version = Int64(change.payload) else { continue }
                        try await self.learn(version, on: connection)
                    }
                    throw WatchLost()
                }
                tasks.addTask {
                    while true {
                        try await self.renew(on: connection)
                        try await Task.sleep(for: Self.renewal)
                    }
                }
                defer { tasks.cancelAll() }
                try await tasks.next()
            }
        }
    }

    /// Extends the lease and learns the version as of now: waiting, through the version's row
    /// lock, for a change that is committing, so that the lease never covers a version missed.
    private func renew(on connection: PostgresConnection) async throws {
        let started = ContinuousClock.now
        let version = try await answered { [id, logger] in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO catalogue_watcher (id, seen_version, lease_until)
                    VALUES (\(id), 0, now() + \(Self.lease) * interval '1 second')
                    ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until
                    """, logger: logger)
                return try await connection.query(
                    "SELECT version FROM catalogue_version FOR SHARE", logger: logger
                ).decode(Int64.self).first { _ in true } ?? 0
            }
        }
        try await learn(version, on: connection)
        state.withLock { $0.trustedUntil = started + .seconds(Self.lease) - Self.margin }
    }

    /// Holds `version` from now on, then tells the database so that changes waiting for it go on.
    private func learn(_ version: Int64, on connection: PostgresConnection) async throws {
        let seen = state.withLock { state in
            state.version = max(state.version, version)
            return state.version
        }
        _ = try await answered { [id, logger] in
            try await connection.query(
                "UPDATE catalogue_watcher SET seen_version = greatest(seen_version, \(seen)) WHERE id = \(id)",
                logger: logger)
        }
    }

    /// What `query` returns, or `WatchLost` once a lease passes without an answer: a query on a
    /// connection that closed meanwhile is never answered, and cancelling does not end it.
    private func answered<T: Sendable>(_ query: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let first = FirstOutcome(continuation)
            let alarm = Task {
                try? await Task.sleep(for: .seconds(Self.lease))
                first.resume(.failure(WatchLost()))
            }
            Task {
                do { first.resume(.success(try await query())) } catch { first.resume(.failure(error)) }
                alarm.cancel()
            }
        }
    }
}

private final class FirstOutcome<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

    func resume(_ outcome: Result<T, any Error>) { continuation.withLock { $0.take() }?.resume(with: outcome) }
}

struct WatchLost: Error, CustomStringConvertible {
    var description: String { "its connection ended or stopped answering" }
}
