import ArgumentParser
import Foundation
import Logging
import MarketApp
import MarketCore
import MarketHTTP

/// Where a market keeps its data: a folder (SQLite and image files) or a PostgreSQL database.
struct MarketOptions: ParsableArguments {
    @Option(help: "Folder for the SQLite database and the images, created when missing (OPENMARKET_DATA_DIR).")
    var dataDir: String = Environment.value("OPENMARKET_DATA_DIR", default: "./data")

    @Option(
        help: ArgumentHelp(
            "Keep the market in PostgreSQL instead of --data-dir, shared by every server given it (OPENMARKET_DATABASE).",
            valueName: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"))
    var database: String?

    /// The data folder, when the market is kept in one rather than in PostgreSQL.
    var folder: URL? {
        guard database ?? Environment.value("OPENMARKET_DATABASE") == nil else { return nil }
        return URL(fileURLWithPath: dataDir, isDirectory: true)
    }

    func configuration() throws -> MarketConfiguration {
        var configuration = MarketConfiguration(
            storage: (database ?? Environment.value("OPENMARKET_DATABASE")).map { .postgres(url: $0) }
                ?? .folder(URL(fileURLWithPath: dataDir, isDirectory: true)))
        if let key = Environment.value("OPENMARKET_SESSION_KEY") {
            guard let sessionKey = SessionKey(base64: key) else {
                throw ValidationError("OPENMARKET_SESSION_KEY must be 32 bytes in base64 (openssl rand -base64 32)")
            }
            configuration.sessionKey = sessionKey
        }
        return configuration
    }

    /// Opens the market, runs `body` with it and closes it; a database that does not answer ends the command in a line.
    func withMarket<T: Sendable>(_ body: (Market) async throws -> T) async throws -> T {
        var configuration = try configuration()
        // A command's output is its answer: only errors are logged.
        configuration.logLevel = .error
        let market = try await CommandFailure.catching { try await Market.open(configuration) }
        return try await market.run { try await body(market) }
    }
}
