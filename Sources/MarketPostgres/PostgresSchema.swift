import Foundation
import Logging
import PostgresNIO

/// The database layout, one numbered SQL file per change in `Migrations`; files only ever get
/// added. Each is applied once, in its own transaction, and recorded in `schema_migration`. Servers
/// that start together against an empty database take turns through an advisory lock: the first
/// applies what is missing, the others find it done.
enum PostgresSchema {
    struct Migration {
        var version: Int
        /// The file's first line, a comment.
        var name: String
        var statements: [String]
    }

    struct MissingMigrations: Error, CustomStringConvertible {
        var description: String { "the database migrations are missing from the program's resources" }
    }

    /// Every migration in order, from the files named `NN-what-it-does.sql`.
    static func migrations() throws -> [Migration] {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("Migrations") else {
            throw MissingMigrations()
        }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        return try files.filter { $0.pathExtension == "sql" }.map { file in
            let sql = try String(contentsOf: file, encoding: .utf8)
            guard let version = Int(file.lastPathComponent.prefix { $0.isNumber }) else { throw MissingMigrations() }
            let name = sql.prefix { $0 != "\n" }.trimmingPrefix("-- ")
            return Migration(version: version, name: String(name), statements: statements(in: sql))
        }.sorted { $0.version < $1.version }
    }

    /// The statements of one file: each ends at a line ending in `;` outside a comment and outside a
    /// `$$` body, the way psql reads it.
    static func statements(in sql: String) -> [String] {
        var statements: [String] = []
        var lines: [Substring] = []
        var inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(line)
            if line.ranges(of: "$$").count % 2 == 1 { inBody.toggle() }
            if !inBody, !line.hasPrefix("--"), line.hasSuffix(";") {
                statements.append(lines.joined(separator: "\n"))
                lines = []
            }
        }
        return statements
    }

    /// An arbitrary number that names "the market's migrations" among advisory locks.
    static let lockKey: Int64 = 0x6f70_656e_6d6b_7431

    static func migrate(_ session: DatabaseSession) async throws {
        try await session.execute("SELECT pg_advisory_lock(\(lockKey))")
        do {
            try await session.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migration (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            let applied = Set(try await session.all("SELECT version FROM schema_migration", as: Int.self))
            for migration in try migrations() where !applied.contains(migration.version) {
                session.logger.info("applying database migration \(migration.version): \(migration.name)")
                try await session.connection.withTransaction(logger: session.logger) { connection in
                    let step = DatabaseSession(connection: connection, logger: session.logger)
                    for statement in migration.statements {
                        try await step.execute(PostgresQuery(unsafeSQL: statement))
                    }
                    try await step.execute(
                        "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))")
                }
            }
        } catch {
            try? await session.execute("SELECT pg_advisory_unlock(\(lockKey))")
            throw error
        }
        try await session.execute("SELECT pg_advisory_unlock(\(lockKey))")
    }
}
