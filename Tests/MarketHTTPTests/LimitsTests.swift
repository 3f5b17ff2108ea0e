import Foundation
import MarketTestSupport
import Testing

/// What is checked from a request's head before its body is read, how many body bytes a server
/// holds at once, and how many connections it keeps: each refusal is immediate and says so.
@Suite struct LimitsTests {
    static let papri = TestMarket.papri

    static func head(_ path: String, length: Int, headers: [String] = []) -> Data {
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n"
        head += "Content-Type: multipart/form-data; boundary=limits\r\n"
        for header in headers { head += header + "\r\n" }
        return Data((head + "\r\n").utf8)
    }

    @Test func anOversizedBodyAndAnUnknownIdentifierAreRefusedFromTheHeadAlone() async throws {
        try await TestMarket.withServer { market in
            let oversized = try await RawConnection(port: market.port)
            try await oversized.send(
                Self.head("/api/products", length: 200 << 20, headers: ["identifier: \(Self.papri.identifier)"]))
            let tooLarge = try await oversized.response()
            #expect(tooLarge.status == 413)
            #expect(try (tooLarge.json["reason"] as? String)?.contains("larger than") == true)

            let stranger = try await RawConnection(port: market.port)
            try await stranger.send(
                Self.head("/api/products", length: 40 << 20, headers: ["identifier: \(UUID().uuidString)"]))
            let unknown = try await stranger.response()
            #expect(unknown.status == 401)
            #expect(try unknown.json["reason"] as? String == "the identifier and secret do not match a vendor")

            let browser = try await RawConnection(port: market.port)
            try await browser.send(Self.head("/products/new", length: 200 << 20, headers: ["Accept: text/html"]))
            let page = try await browser.response()
            #expect(page.status == 303 || page.status == 413, "a page, not a wait for 200 MB")
            #expect(market.market.limits.bodies.inFlight == 0)
        }
    }

    @Test func bodiesBeyondWhatTheServerHoldsAtOnceAre503UntilThereIsRoom() async throws {
        try await TestMarket.withServer(configure: { $0.bodyBytesInFlight = 1 << 20 }) { market in
            let bodies = market.market.limits.bodies
            let first = try await RawConnection(port: market.port)
            let firstLength = 800_000
            try await first.send(
                Self.head("/api/products", length: firstLength, headers: ["identifier: \(Self.papri.identifier)"]))
            try await first.send(Data(repeating: 0x2d, count: 1000))
            try await waitUntil("the first body held") { bodies.inFlight == firstLength }

            let params = #"{"secret":"\#(Self.papri.secret)"}"#
            let body =
                Data("--limits\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n".utf8)
                + Data(repeating: 0x20, count: 300_000) + Data("--limits--\r\n".utf8)
            func second() async throws -> RawResponse {
                try await market.send(
                    "POST", "/api/products",
                    headers: [
                        "identifier: \(Self.papri.identifier)", "Content-Type: multipart/form-data; boundary=limits",
                    ], body: body)
            }
            let refused = try await second()
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "2")
            #expect(try (refused.json["reason"] as? String)?.contains("too many uploads") == true)

            try await first.send(Data(repeating: 0x2d, count: firstLength - 1000))
            #expect(try await first.response().status == 400)
            try await waitUntil("no body held") { bodies.inFlight == 0 }
            let taken = try await second()
            #expect(taken.status == 400, "read and checked now: \(taken.text)")
        }
    }

    @Test func connectionsBeyondTheCapAreAnswered503AndClosed() async throws {
        try await TestMarket.withServer(configure: { $0.maximumConnections = 3 }) { market in
            let connections = market.market.limits.connections
            let list = "/api/products?page_no=1&items_per_page=10"
            for _ in 0..<2 { #expect(try await market.send("GET", list).status == 200) }
            try await waitUntil("no connection open") { connections.open == 0 }
            var open: [RawConnection] = []
            for _ in 0..<3 { open.append(try await RawConnection(port: market.port)) }
            try await waitUntil("three connections open") { connections.open == 3 }

            let refused = try await market.send("GET", "/healthChecker")
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(try (refused.json["reason"] as? String)?.contains("too many open connections") == true)
            #expect(try await market.send("GET", list).status == 503, "a kept answer too")

            open.removeLast().hangUp()
            try await waitUntil("two connections open") { connections.open == 2 }
            #expect(try await market.send("GET", "/healthChecker").status == 200)
        }
    }
}
