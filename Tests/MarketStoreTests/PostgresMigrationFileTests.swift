import Testing

@testable import MarketPostgres

/// PostgreSQL's migrations as their files hold them: numbered without gaps, each named, each
/// statement ending where psql would end it.
@Suite struct PostgresMigrationFileTests {
    @Test func everyMigrationIsNumberedInTurnAndNamed() throws {
        let migrations = try PostgresSchema.migrations()
        #expect(migrations.map(\.version) == Array(1...migrations.count))
        #expect(migrations.allSatisfy { !$0.name.isEmpty && !$0.name.hasPrefix("--") && !$0.statements.isEmpty })
    }

    @Test func aStatementEndsAtASemicolonThatEndsALineOutsideCommentsAndFunctionBodies() throws {
        let statements = try PostgresSchema.statements(
            in: """
                -- a name
                CREATE TABLE t (a integer);
                  -- a comment that ends as a statement would, $$ and all;
                CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RETURN NULL;
                END $$;
                -- nothing after this
                """)
        #expect(statements.count == 2)
        #expect(statements.last?.hasPrefix("  -- a comment") == true)
        #expect(statements.last?.hasSuffix("RETURN NULL;\nEND $$;") == true)
    }

    @Test func aFileThatEndsInsideAStatementIsRefused() {
        #expect(throws: PostgresSchema.UnreadableMigrations.self) {
            try PostgresSchema.statements(in: "CREATE TABLE t (a integer);\nCREATE TABLE u (b integer)\n")
        }
        #expect(throws: PostgresSchema.UnreadableMigrations.self) {
            try PostgresSchema.statements(in: "CREATE FUNCTION f() RETURNS integer LANGUAGE sql AS $$\nSELECT 1;\n")
        }
    }
}
