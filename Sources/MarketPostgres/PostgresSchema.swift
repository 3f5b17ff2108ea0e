import Foundation
import Logging
import PostgresNIO

/// The database layout, one numbered SQL file per change in `Migrations`; files only ever get added. Each is applied
/// once, in its own transaction, and recorded in `schema_migration`. Servers that start together against an empty
/// database take turns through an advisory lock: the first applies what is missing, the others find it done.
enum PostgresSchema {
    struct Migration {
        var version: Int
        /// The file's first line, a comment.
        var name: String
        var statements: [String]
    }

    struct UnreadableMigrations: Error, CustomStringConvertible { var description: String }

    /// Every migration in order, from the files named `NN-what-it-does.sql`.
    static func migrations() throws -> [Migration] {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("Migrations"),
            let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil),
            files.contains(where: { $0.pathExtension == "sql" })
        else {
            throw UnreadableMigrations(
                description: "the database migrations are missing from the program's resources (Migrations/*.sql)")
        }
        return try files.filter { $0.pathExtension == "sql" }.map { file in
            let sql = try String(contentsOf: file, encoding: .utf8)
            guard let version = Int(file.lastPathComponent.prefix { $0.isNumber }) else {
                throw UnreadableMigrations(description: "migration \(file.lastPathComponent) has no number first")
            }
            let name = sql.prefix { $0 != "\n" }.trimmingPrefix("-- ")
            return Migration(version: version, name: String(name), statements: try statements(in: sql))
        }.sorted { $0.version < $1.version }
    }

    /// The statements of one file: each ends at a line ending in `;` that is outside a comment line and
    /// outside a `$$` body. A file that ends inside a statement is refused rather than cut short.
    static func statements(in sql: String) throws -> [String] {
        var statements: [String] = []
        var lines: [Substring] = []
        var inBody = false
        for line in sql.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lines.append(line)
            if line.trimmingPrefix(while: \.isWhitespace).hasPrefix("--") { continue }
            if line.ranges(of: "$$").count % 2 == 1 { inBody.toggle() }
            if !inBody, line.hasSuffix(";") {
                statements.append(lines.joined(separator: "\n"))
                lines = []
            }
        }
        guard !inBody,
            lines.allSatisfy({
                $0.allSatisfy(\.isWhitespace) || $0.trimmingPrefix(while: \.isWhitespace).hasPrefix("--")
            })
        else {
            throw UnreadableMigrations(
                description: "a migration ends inside a statement: \(lines.joined(separator: "\n"))")
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
