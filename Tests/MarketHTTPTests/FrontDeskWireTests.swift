import Foundation
import MarketTestSupport
import Testing

/// The desk's wire reads plain GETs off the connection itself and writes kept answers straight to
/// the socket; whatever it cannot read it leaves to SwiftNIO's parser, and clients see no seam.
@Suite struct FrontDeskWireTests {
    static let list = "/api/products?page_no=1&items_per_page=10"

    static func get(
        _ path: String, _ fields: String = "", version: String = "HTTP/1.1", in market: TestMarket
    ) -> String {
        "GET \(path) \(version)\r\nHost: 127.0.0.1:\(market.port)\r\n\(fields)\r\n"
    }

    /// RFC 9110's date, as the `Date` field has it.
    static let imfFixdate = {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return format
    }()

    /// The router's answer, then the one the desk keeps, as a client on its own connection sees them.
    static func routerAndDesk(_ path: String, in market: TestMarket) async throws -> (RawResponse, RawResponse) {
        let first = try await market.send("GET", path)
        return (first, try await market.send("GET", path))
    }

    @Test func theWireWritesTheHeadTheEncoderWrote() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Wired lamp")
            let image = try await FrontDeskTests.thumbnail(of: product.id, in: market)
            for path in [Self.list, "/api/products/\(product.id)", image] {
                let asked = Date().timeIntervalSince1970.rounded(.down)
                let (router, desk) = try await Self.routerAndDesk(path, in: market)
                let dated = try #require(desk.header("Date").flatMap(Self.imfFixdate.date(from:)))
                #expect((asked...Date().timeIntervalSince1970).contains(dated.timeIntervalSince1970), "\(path)")
                let exactly = { (answer: RawResponse) in
                    answer.headers.filter { $0.name.lowercased() != "date" }.map { "\($0.name): \($0.value)" }
                }
                #expect(desk.status == 200 && exactly(desk) == exactly(router) && desk.body == router.body, "\(path)")
                let tag = try #require(desk.header("ETag"))
                let unchanged = try await market.send("GET", path, headers: ["If-None-Match: \(tag)"])
                #expect(unchanged.status == 304 && unchanged.body.isEmpty, "\(path)")
                #expect(unchanged.header("Content-Length") == nil && unchanged.header("ETag") == tag, "\(path)")
            }
        }
    }

    @Test func aHeadThatComesInPiecesIsAnsweredWhenItsEndComes() async throws {
        try await TestMarket.withServer { market in
            _ = try await market.addProduct("Slow reader's chair")
            let (_, expected) = try await Self.routerAndDesk(Self.list, in: market)
            let connection = try await RawConnection(port: market.port)
            let request = Self.get(Self.list, "Accept-Language: ko\r\n", in: market)
            for _ in 0..<2 {
                for piece in [request.prefix(9), request.dropFirst(9).prefix(30), request.dropFirst(39)] {
                    try await connection.send(Data(piece.utf8))
                }
                let answer = try await connection.response()
                #expect(answer.status == 200 && answer.body == expected.body)
            }
        }
    }

    /// A request with a body, or one over HTTP/1.0, is the parser's, and so is everything after it
    /// on that connection; the answers are the same.
    @Test func whatTheWireCannotReadIsTheParsersAndAnsweredAllTheSame() async throws {
        try await TestMarket.withServer { market in
            _ = try await market.addProduct("Plain table")
            let (_, expected) = try await Self.routerAndDesk(Self.list, in: market)

            let connection = try await RawConnection(port: market.port)
            let body = #"{"name":"#
            let post =
                "POST /api/products HTTP/1.1\r\nHost: 127.0.0.1:\(market.port)\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            try await connection.send(
                Data((Self.get(Self.list, in: market) + post + body + Self.get(Self.list, in: market)).utf8))
            let answers = try await connection.responses(3)
            #expect(answers.map(\.status) == [200, 400, 200])
            #expect(answers[0].body == expected.body && answers[2].body == expected.body)

            let old = try await RawHTTP.send(
                Data(Self.get(Self.list, version: "HTTP/1.0", in: market).utf8), port: market.port)
            #expect(old.status == 200 && old.body == expected.body)
        }
    }

    /// A line feed alone and a folded field are refused by SwiftNIO's parser, an empty line before
    /// the request is skipped by it, as before the wire.
    @Test func oddHeadsAreLeftToTheParser() async throws {
        try await TestMarket.withServer { market in
            _ = try await market.addProduct("Odd shelf")
            let (router, _) = try await Self.routerAndDesk(Self.list, in: market)
            let host = "Host: 127.0.0.1:\(market.port)"
            for (head, status) in [
                ("GET \(Self.list) HTTP/1.1\n\(host)\n\n", 400),
                ("GET \(Self.list) HTTP/1.1\r\n\(host)\r\nX-Folded: a\r\n b\r\n\r\n", 400),
                ("\r\n" + Self.get(Self.list, in: market), 200),
            ] {
                let answer = try await RawHTTP.send(Data(head.utf8), port: market.port)
                #expect(answer.status == status, "\(head.debugDescription)")
                if status == 200 { #expect(answer.body == router.body) }
            }
        }
    }
}
