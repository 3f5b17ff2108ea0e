import Logging
import PostgresNIO

/// One leased connection, with the logger its queries go to.
struct DatabaseSession: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await connection.query(query, logger: logger)
    }

    /// The first row's value, or nil when there is no row.
    func first<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type) async throws -> T? {
        try await self.query(query).decode(T.self).first { _ in true }
    }

    /// The first row's value, which the query always returns.
    func single<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type) async throws -> T {
        guard let value = try await first(query, as: T.self) else {
            throw UnexpectedAnswer(description: "the database returned no row for a query that always returns one")
        }
        return value
    }

    func all<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type) async throws -> [T] {
        var values: [T] = []
        for try await value in try await self.query(query).decode(T.self) { values.append(value) }
        return values
    }
}
