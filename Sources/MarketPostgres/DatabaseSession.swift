import Logging
import PostgresNIO

struct DatabaseSession: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await connection.query(query, logger: logger)
    }

    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] { try await self.query(query).collect() }

    /// The rows of a statement, prepared on this connection on its first use.
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        try await connection.execute(statement, logger: logger).collect()
    }

    /// Runs a statement for its effect, reading whatever it returns.
    func execute(_ query: PostgresQuery) async throws { for try await _ in try await self.query(query) {} }

    func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> T? {
        try await self.query(query).decode(T.self).first { _ in true }
    }

    func single<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> T {
        guard let value = try await first(query, as: T.self) else { throw Self.noRow }
        return value
    }

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
    /// PostgresNIO's own `collect()` is for undecoded rows only.
    func collect() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
