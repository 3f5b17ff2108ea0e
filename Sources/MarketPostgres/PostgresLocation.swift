import Foundation
import MarketCore
import NIOSSL
import PostgresNIO

/// Where a market's PostgreSQL database is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
/// with `?sslmode=disable|prefer|require|verify-full` as libpq reads it (prefer is the default;
/// only verify-full checks the server's certificate).
public struct PostgresLocation: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    var password: String?
    public var database: String
    var sslMode: String

    public init(url: String) throws {
        guard let components = URLComponents(string: url),
            ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty, let username = components.user, !username.isEmpty
        else {
            throw SetupError("--database must look like postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        self.host = host
        port = components.port ?? 5432
        self.username = username.removingPercentEncoding ?? username
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.drop { $0 == "/" }
        database = path.isEmpty ? self.username : String(path)
        sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        guard ["disable", "prefer", "require", "verify-full"].contains(sslMode) else {
            throw SetupError("sslmode must be disable, prefer, require or verify-full")
        }
    }

    /// The address without the password, for messages and logs.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    private var tlsConfiguration: TLSConfiguration? {
        guard sslMode != "disable" else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if sslMode != "verify-full" { configuration.certificateVerification = .none }
        return configuration
    }

    var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch (sslMode, tlsConfiguration) {
            case (_, nil): .disable
            case ("prefer", let tls?): .prefer(tls)
            case (_, let tls?): .require(tls)
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(3)
        // The pool's keep-alive and idle-close timers cost a task group and a dispatch timer per query, so
        // connections stay open unprobed: one the database closes is noticed when its socket closes.
        configuration.options.minimumConnections = 4
        configuration.options.keepAliveBehavior = nil
        // More queries at once than the database has cores just move their wait into it, where they slow each other.
        configuration.options.maximumConnections = 8
        return configuration
    }

    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch (sslMode, try tlsConfiguration.map(NIOSSLContext.init)) {
            case (_, nil): .disable
            case ("prefer", let context?): .prefer(context)
            case (_, let context?): .require(context)
            }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(3)
        return configuration
    }
}
