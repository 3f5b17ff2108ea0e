import Foundation
import MarketDemo

/// Several `openmarket serve` processes sharing one new PostgreSQL database of the test cluster,
/// with the reference apps' vendors registered, and nginx in front of them.
public final class ServerGroup: @unchecked Sendable {
    public let database: String
    public private(set) var servers: [RunningServer]
    public let ports: [Int]
    public let balancer: LoadBalancer

    private init(database: String, servers: [RunningServer], ports: [Int], balancer: LoadBalancer) {
        self.database = database
        self.servers = servers
        self.ports = ports
        self.balancer = balancer
    }

    public var peers: [MarketPeer] { ports.map { MarketPeer(port: $0) } }
    public var front: MarketPeer { MarketPeer(port: balancer.port) }

    /// Runs `body` with a started group and stops it afterwards, whatever happens.
    public static func run<T: Sendable>(
        count: Int = 2, isolation: isolated (any Actor)? = #isolation, _ body: (ServerGroup) async throws -> T
    ) async throws -> T {
        let group = try await start(count: count)
        do {
            let result = try await body(group)
            await group.stop()
            return result
        } catch {
            await group.stop()
            throw error
        }
    }

    static func start(count: Int) async throws -> ServerGroup {
        let database = try await TestStorage.createDatabase()
        for vendor in DemoCatalogue.vendors {
            let added = try await OpenMarketBinary.run([
                "vendors", "add", "--database", database, "--name", vendor.name, "--identifier", vendor.identifier,
                "--secret", vendor.secret,
            ])
            guard added.status == 0 else { throw RawHTTPError("vendors add failed: \(added.errors)") }
        }
        var servers: [RunningServer] = []
        var ports: [Int] = []
        do {
            for _ in 0..<count {
                let server = try Self.serve(database: database, port: 0)
                servers.append(server)
                ports.append(try await server.listeningPort())
            }
            return ServerGroup(
                database: database, servers: servers, ports: ports,
                balancer: try await LoadBalancer.start(before: ports))
        } catch {
            // Servers left running would keep watching the catalogue in the shared cluster.
            await release(servers, database)
            throw error
        }
    }

    static func serve(database: String, port: Int) throws -> RunningServer {
        try OpenMarketBinary.start(["serve", "--port", String(port), "--database", database])
    }

    /// Starts server `index` again on its port, after it was killed.
    public func restart(_ index: Int) async throws {
        servers[index] = try Self.serve(database: database, port: ports[index])
        _ = try await servers[index].listeningPort()
    }

    /// Stops everything and drops the database.
    func stop() async {
        await balancer.stop()
        await Self.release(servers, database)
    }

    private static func release(_ servers: [RunningServer], _ database: String) async {
        for server in servers { _ = try? await server.terminate() }
        try? await TestStorage.dropDatabase(database)
    }
}
