import Foundation
import Logging
import MarketPostgres
import MarketTestSupport
import Testing

/// An operator whose database cannot be made a market's is told why, and what to do only when
/// that is what is wrong.
@Suite struct PostgresUnpreparedTests {
    @Test func aUserWhoDoesNotOwnTheDatabaseIsToldToOwnIt() async throws {
        let url = try await TestStorage.createDatabase()
        let role = "visitor_\(UUID().uuidString.prefix(8).lowercased())"
        // It may make tables, so that the first migration is what fails, on the extension.
        try await TestStorage.administer(url, "CREATE ROLE \(role) LOGIN")
        try await TestStorage.administer(url, "GRANT CREATE ON SCHEMA public TO \(role)")
        var visitor = try #require(URLComponents(string: url))
        visitor.user = role
        let error = try await Self.refusal(try #require(visitor.string))
        #expect(error.permissionDenied)
        #expect(error.reason == "permission denied to create extension \"pg_trgm\"")
        #expect(error.description.hasSuffix("the user needs to own the database (pg_trgm is created in it)"))
        try await TestStorage.dropDatabase(url)
        try await TestStorage.administer(try TestStorage.postgresAdminURL(), "DROP ROLE \(role)")
    }

    @Test func aDatabaseHoldingSomethingElseIsNotBlamedOnItsOwner() async throws {
        let url = try await TestStorage.createDatabase()
        try await TestStorage.administer(url, "CREATE TABLE vendor (name text)")
        let error = try await Self.refusal(url)
        #expect(!error.permissionDenied)
        #expect(error.reason == "relation \"vendor\" already exists")
        #expect(!error.description.contains("own the database"))
        try await TestStorage.dropDatabase(url)
    }

    private static func refusal(_ url: String) async throws -> PostgresUnprepared {
        do {
            var logger = Logger(label: "unprepared")
            logger.logLevel = .warning
            _ = try await PostgresMarket.open(url: url, logger: logger)
        } catch let error as PostgresUnprepared {
            return error
        }
        Issue.record("the market opened")
        throw CancellationError()
    }
}
