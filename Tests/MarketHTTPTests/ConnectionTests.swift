import Foundation
import MarketTestSupport
import Testing

/// Connections that send nothing, half a request head, or nothing more after their answer are
/// closed by the server, so silent clients cannot use up its file descriptors. The market's own
/// timeout is 30 seconds; these tests give their server five (less would be racy while the whole
/// suite runs at once).
@Suite struct ConnectionTests {
    @Test func aSilentConnectionAndOneThatSendsHalfAHeadAreClosed() async throws {
        try await TestMarket.withServer(configure: { $0.connectionIdleTimeout = .seconds(5) }) { market in
            let silent = try await RawConnection(port: market.port)
            let slow = try await RawConnection(port: market.port)
            try await slow.send(Data("GET /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
            #expect(try await silent.closedByServer(within: .seconds(20)))
            #expect(try await slow.closedByServer(within: .seconds(20)))
        }
    }

    /// The requests go in one write: a busy machine running the whole suite may stall the client
    /// between requests for longer than any idle limit a test can wait for.
    @Test func aKeepAliveConnectionServesRequestsThenIsClosedWhenIdle() async throws {
        try await TestMarket.withServer(configure: { $0.connectionIdleTimeout = .seconds(15) }) { market in
            let connection = try await RawConnection(port: market.port)
            let request = "GET /healthChecker HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            try await connection.send(Data(String(repeating: request, count: 3).utf8))
            #expect(try await connection.responses(3).map(\.status) == [200, 200, 200])
            #expect(try await connection.closedByServer(within: .seconds(40)))
            #expect(try await market.send("GET", "/healthChecker").status == 200, "new clients are still served")
        }
    }
}
