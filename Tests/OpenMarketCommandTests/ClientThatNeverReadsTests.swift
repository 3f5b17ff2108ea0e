import Foundation
import MarketTestSupport
import Testing

/// A client that pipelines requests and never reads their answers costs the market a bounded
/// amount of memory: once the answers it leaves unread fill the connection, the server stops
/// reading from it, and everyone else is still answered.
@Suite struct ClientThatNeverReadsTests {
    @Test func aClientThatNeverReadsIsStoppedAndCostsLittle() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("never-reads-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try OpenMarketBinary.start(["serve", "--demo", "--port", "0", "--data-dir", folder])
        defer { server.signalTerminate() }
        let port = try await server.listeningPort()
        let detail = try await RawHTTP.send(wire("GET /api/products/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), port: port)
        let image = try #require(try JSONSerialization.jsonObject(with: detail.body) as? [String: Any])["thumbnail"]
        let path = try #require((image as? String).flatMap { URL(string: $0)?.path })
        // The image's bytes in the server's memory, as the many requests below find them.
        _ = try await RawHTTP.send(wire("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), port: port)
        let before = try server.residentBytes()

        let greedy = try await RawConnection(port: port)
        let request = Data("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let sent = try await greedy.sendUntilRefused(request, count: 100_000, patience: .seconds(3))
        #expect(sent < 100_000, "the server stopped reading from a client that reads nothing")

        let other = try await RawHTTP.send(wire("GET /healthChecker HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), port: port)
        #expect(other.status == 200)
        let grown = try server.residentBytes() - before
        #expect(grown < 64 * 1024 * 1024, "the server grew by \(grown / 1024 / 1024) MB")
    }
}
