import Logging
import PostgresNIO

/// One leased connection, with the logger its queries go to.
struct DatabaseSession: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await connection.query(query, logger: logger)
    }

    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await self.query(query).collect()
    }

    /// The rows of a statement prepared on this connection (prepared now if it is the first time).
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        try await connection.execute(statement, logger: logger).collect()
    }

    /// Runs a statement for its effect, reading whatever it returns.
    func execute(_ query: PostgresQuery) async throws {
        for try await _ in try await self.query(query) {}
    }

    /// The first row's value, or nil when there is no row.
    func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> T? {
        try await self.query(query).decode(T.self).first { _ in true }
    }

    /// The first row's value, which the query always returns.
    func single<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> T {
        guard let value = try await first(query, as: T.self) else { throw Self.noRow }
        return value
    }

    /// The first row of a prepared statement that always returns one.
    func single<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> Statement.Row {
        guard let row = try await rows(statement).first else { throw Self.noRow }
        return row
    }

    private static let noRow = UnexpectedAnswer(
        description: "the database returned no row for a query that always returns one")

    func all<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> [T] {
        try await self.query(query).decode(T.self).collect()
    }
}

extension AsyncSequence {
    /// Every element, in order (PostgresNIO's own `collect()` is for undecoded rows only).
    func collect() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
