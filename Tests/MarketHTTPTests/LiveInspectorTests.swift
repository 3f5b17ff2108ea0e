import Foundation
import MarketTestSupport
import Testing

/// The live inspector: a vendor's new requests as server-sent events, on the JSON twin for scripts
/// and `openmarket inspect`, and on the page for its script.
@Suite struct LiveInspectorTests {
    /// A connection following papri's requests live, once the stream has begun.
    static func following(
        _ market: TestMarket, _ path: String = "/inspector/requests/live", headers: [String] = []
    ) async throws -> (RawConnection, head: String) {
        let live = try await asking(market, path, headers: headers)
        return (live, try await live.read(until: "retry: 2000"))
    }

    /// A connection that has asked to follow papri's requests.
    static func asking(
        _ market: TestMarket, _ path: String = "/inspector/requests/live", headers: [String] = []
    ) async throws -> RawConnection {
        let live = try await RawConnection(port: market.port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in InspectorTests.credentials(TestMarket.papri) + headers { request += header + "\r\n" }
        try await live.send(Data((request + "\r\n").utf8))
        return live
    }

    static func papriAsks(_ market: TestMarket, _ path: String) async throws {
        _ = try await market.send("GET", path, headers: ["identifier: \(TestMarket.papri.identifier)"])
    }

    /// The event whose record has `path`, and its id.
    static func event(in stream: String, about path: String) throws -> (id: Int64, data: [String: Any]) {
        let events = stream.components(separatedBy: "\n\n").filter { $0.contains(path) }
        let event = try #require(events.first)
        let id = try #require(event.firstMatch(of: #/id: (\d+)/#).flatMap { Int64($0.1) })
        let data = try #require(event.firstMatch(of: #/data: (.+)/#).map { Data($0.1.utf8) })
        return (id, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }

    @Test func aVendorsNewRequestsArriveAsTheyAreKeptAndNobodyElses() async throws {
        try await TestMarket.withServer { market in
            let (live, head) = try await Self.following(market)
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(head.lowercased().contains("content-type: text/event-stream"))
            #expect(head.lowercased().contains("x-accel-buffering: no"), "nginx passes each event on at once")
            _ = try await market.send(
                "GET", "/api/products/404404", headers: ["identifier: \(TestMarket.judy.identifier)"])
            try await Self.papriAsks(market, "/api/products/505505")
            let stream = try await live.read(until: "505505")
            #expect(!stream.contains("404404"), "judy's request is not papri's")
            let (_, data) = try Self.event(in: stream, about: "505505")
            let request = try #require(data["request"] as? [String: Any])
            #expect(request["path"] as? String == "/api/products/505505" && request["status"] as? Int == 404)
            #expect(!stream.contains(TestMarket.papri.secret))
        }
    }

    @Test func aClientThatComesBackCarriesOnAfterTheLastRequestItSaw() async throws {
        try await TestMarket.withServer { market in
            try await Self.papriAsks(market, "/api/products/111111")
            let (first, _) = try await Self.following(market, "/inspector/requests/live?after=0")
            let seen = try Self.event(in: try await first.read(until: "111111"), about: "111111")
            first.hangUp()
            try await Self.papriAsks(market, "/api/products/222222")
            let (again, _) = try await Self.following(market, headers: ["Last-Event-ID: \(seen.id)"])
            let stream = try await again.read(until: "222222")
            #expect(!stream.contains("111111"), "what it saw is not sent again")
        }
    }

    @Test func aFewFollowAVendorAtOnceAndTheNextIsToldToWait() async throws {
        try await TestMarket.withServer { market in
            var open: [RawConnection] = []
            for _ in 0..<8 { open.append(try await Self.following(market).0) }
            let refused = try await market.send(
                "GET", "/inspector/requests/live", headers: InspectorTests.credentials(TestMarket.papri))
            #expect(refused.status == 429)
            #expect(try refused.json["reason"] as? String == "at most 8 live inspectors follow one vendor at a time")
            let wrong = try await market.send(
                "GET", "/inspector/requests/live",
                headers: ["identifier: \(TestMarket.papri.identifier)", "secret: not-it"])
            #expect(wrong.status == 401)
            open.forEach { $0.hangUp() }
        }
    }

    /// As a learner who reloads the inspector page eight times: each page that goes gives back its
    /// place. Asked for 10 s, well before the 15 s heartbeat that would otherwise find them gone.
    @Test func thoseWhoHangUpMakeRoomAtOnce() async throws {
        try await TestMarket.withServer { market in
            for _ in 0..<8 { try await Self.following(market).0.hangUp() }
            try await waitUntil("a ninth is let in after eight hung up", limit: .seconds(10)) {
                let ninth = try await Self.asking(market)
                defer { ninth.hangUp() }
                return try await ninth.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 200")
            }
        }
    }

    @Test func theInspectorPageFollowsOnItsFirstPageWithRowsInItsLanguage() async throws {
        try await TestMarket.withServer { market in
            var visitor = StorefrontVisitor(market, language: "ko")
            _ = try await visitor.signIn(TestMarket.papri)
            let page = try await visitor.get("/inspector").text
            #expect(page.contains(#"<p class="live" role="status" data-live="/inspector/live?after=0" hidden></p>"#))
            let refusedOnly = try await visitor.get("/inspector?refused=1").text
            #expect(refusedOnly.contains(#"data-live="/inspector/live?after=0&amp;refused=1""#))

            let cookie = visitor.cookies.map { "\($0)=\($1)" }.joined(separator: "; ")
            let live = try await RawConnection(port: market.port)
            try await live.send(
                Data(
                    "GET /inspector/live?refused=1 HTTP/1.1\r\nHost: x\r\nAccept-Language: ko\r\nCookie: \(cookie)\r\n\r\n"
                        .utf8))
            try await Self.papriAsks(market, "/api/products?page_no=1&items_per_page=3")
            try await Self.papriAsks(market, "/api/products/909090")
            let stream = try await live.read(until: "909090")
            #expect(!stream.contains("items_per_page=3"), "a request that was not refused is left out")
            #expect(stream.contains("data: <li>"))
            #expect(stream.contains("data:     <h2>거절된 이유</h2>"), "each line of the row as its own data line")

            var stranger = StorefrontVisitor(market)
            #expect(try await stranger.get("/inspector/live").status == 401)
        }
    }
}
