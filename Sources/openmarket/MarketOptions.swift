import ArgumentParser
import Foundation
import Logging
import MarketApp
import MarketHTTP

/// Where a market keeps its data: a folder (SQLite and image files) or a PostgreSQL database.
struct MarketOptions: ParsableArguments {
    @Option(help: "Folder for the SQLite database and the images, created when missing (OPENMARKET_DATA_DIR).")
    var dataDir: String = Environment.value("OPENMARKET_DATA_DIR", default: "./data")

    @Option(
        help: ArgumentHelp(
            "Keep the market in PostgreSQL instead of --data-dir, shared by every server given it (OPENMARKET_DATABASE).",
            valueName: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"))
    var database: String? = Environment.value("OPENMARKET_DATABASE")

    func configuration() throws -> MarketConfiguration {
        var configuration = MarketConfiguration(
            storage: database.map { .postgres(url: $0) } ?? .folder(URL(fileURLWithPath: dataDir, isDirectory: true)))
        if let key = Environment.value("OPENMARKET_SESSION_KEY") {
            guard let sessionKey = SessionKey(base64: key) else {
                throw ValidationError("OPENMARKET_SESSION_KEY must be 32 bytes in base64 (openssl rand -base64 32)")
            }
            configuration.sessionKey = sessionKey
        }
        return configuration
    }

    /// Opens the market, runs `body` with it and closes it; a database that does not answer ends
    /// the command with one line that says what to check.
    func withMarket<T: Sendable>(
        _ adjust: (inout MarketConfiguration) -> Void = { _ in }, logger: Logger = .quiet,
        _ body: (Market) async throws -> T
    ) async throws -> T {
        var configuration = try configuration()
        adjust(&configuration)
        let market = try await Self.open(configuration, logger: logger)
        return try await market.run(logger: logger) { try await body(market) }
    }

    static func open(_ configuration: MarketConfiguration, logger: Logger) async throws -> Market {
        do {
            return try await Market.open(configuration, logger: logger)
        } catch {
            throw CommandFailure(String(describing: error))
        }
    }
}

extension Logger {
    /// For commands whose output is their answer: only errors are logged.
    static var quiet: Logger {
        var logger = Logger(label: "openmarket")
        logger.logLevel = .error
        return logger
    }
}
