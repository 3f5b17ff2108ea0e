import Foundation
import MarketCore
import MarketTestSupport
import Testing

/// Reads asked again (kept responses, images held in memory) give the same bytes as the first
/// time, in the order the requests came, recorded, faulted and timed out like any other request.
@Suite struct RepeatedReadsTests {
    static let visitor = "Cookie: market_form_token=" + String(repeating: "a", count: 64)

    /// The head's lines but the date, which moves on every second.
    static func lines(_ response: RawResponse) -> [String] {
        response.headers.map { "\($0.name.lowercased()): \($0.value)" }.filter { !$0.hasPrefix("date:") }
    }

    static func date(of response: RawResponse) -> Date? {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return response.header("Date").flatMap(format.date(from:))
    }

    static func thumbnail(of id: Int64, in market: TestMarket) async throws -> String {
        let detail = try await market.send("GET", "/api/products/\(id)").json
        let url = try #require(detail["thumbnail"] as? String)
        return String(url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })
    }

    /// The first response to each request is made; those after it are kept ones.
    @Test func whatIsGivenAgainIsExactlyWhatTheRouterGave() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Desk lamp")
            let image = try await Self.thumbnail(of: product.id, in: market)
            for path in KeptAnswersTests.reads(of: product.id) + [image] {
                for encoding in [[], ["Accept-Encoding: gzip"]] {
                    let headers = [Self.visitor] + encoding
                    let first = try await market.send("GET", path, headers: headers)
                    #expect(first.status == 200, "\(path)")
                    for _ in 0..<2 {
                        let again = try await market.send("GET", path, headers: headers)
                        #expect(Self.lines(again) == Self.lines(first), "\(path) \(encoding)")
                        #expect(again.body == first.body, "\(path) \(encoding)")
                        let (given, made) = try (#require(Self.date(of: again)), #require(Self.date(of: first)))
                        #expect(given >= made && given.timeIntervalSince(made) < 60, "a date of now, not a kept one")
                    }
                }
            }
        }
    }

    /// A client that holds an image gets the same 304 whether its bytes are in memory yet or not:
    /// no length, no body; one that holds another gets the whole image. Each image's head is its own.
    @Test func anImageTheClientHoldsIsAlwaysTheSame304() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Held lamp", imageCount: 2)
            let detail = try await market.send("GET", "/api/products/\(product.id)").json
            let urls = try #require((detail["images"] as? [[String: Any]])?.compactMap { $0["url"] as? String })
            var bodies: [Data] = []
            for url in urls {
                let path = String(url.dropFirst("http://127.0.0.1:\(market.port)".count))
                let tag = "\"\(ImageKey.name(of: String(path.dropFirst("/images/".count))))\""
                var unchanged: [RawResponse] = []
                for _ in 0..<3 {
                    unchanged.append(try await market.send("GET", path, headers: ["If-None-Match: \(tag)"]))
                }
                for answer in unchanged {
                    #expect(answer.status == 304 && answer.body.isEmpty, "\(path)")
                    #expect(Self.lines(answer) == Self.lines(unchanged[0]), "\(path)")
                    #expect(answer.header("ETag") == tag && answer.header("Content-Length") == nil)
                }
                let whole = try await market.send("GET", path, headers: ["If-None-Match: \"other\""])
                #expect(whole.status == 200 && whole.header("ETag") == tag)
                #expect(whole.header("Content-Length") == String(whole.body.count))
                #expect(Self.lines(whole).filter { !$0.hasPrefix("content-length:") } == Self.lines(unchanged[0]))
                bodies.append(whole.body)
            }
            #expect(bodies.count == 2 && bodies[0] != bodies[1])
        }
    }

    @Test func newVisitorsGivenAKeptPageEachGetATokenOfTheirOwn() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Welcoming sofa")
            for path in ["/", "/products/\(product.id)"] {
                var answers: [RawResponse] = []
                for _ in 0..<4 { answers.append(try await market.send("GET", path)) }
                let cookies = answers.compactMap { $0.header("Set-Cookie") }
                #expect(cookies.count == 4 && Set(cookies).count == 4, "\(path): \(cookies)")
                for cookie in cookies {
                    let parts = Set(
                        cookie.replacing(/market_form_token=[0-9a-f]{64}/, with: "token").split(separator: "; "))
                    #expect(parts == ["token", "Path=/", "HttpOnly", "SameSite=Lax"], "\(path): \(cookie)")
                }
                let rest = Set(answers.map { Self.lines($0).filter { !$0.hasPrefix("set-cookie:") } })
                #expect(rest.count == 1 && Set(answers.map(\.body)).count == 1, "\(path)")
            }
        }
    }

    @Test func requestsSentTogetherAreAnsweredInTheOrderTheyCame() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Pipelined chair")
            let image = try await Self.thumbnail(of: product.id, in: market)
            let list = "/api/products?page_no=1&items_per_page=10"
            let detail = "/api/products/\(product.id)"
            var expected: [String: RawResponse] = [:]
            for path in [list, detail, image, "/healthChecker", "/api/products/99999"] {
                _ = try await market.send("GET", path)
                expected[path] = try await market.send("GET", path)
            }
            let paths = [list, "/healthChecker", image, detail, "/api/products/99999", list, image, detail]
            let connection = try await RawConnection(port: market.port)
            try await connection.send(
                Data(paths.map { "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1:\(market.port)\r\n\r\n" }.joined().utf8))
            let answers = try await connection.responses(paths.count)
            for (path, answer) in zip(paths, answers) {
                #expect(answer.status == expected[path]?.status, "\(path)")
                #expect(answer.body == expected[path]?.body, "\(path): \(answer.text) \(expected[path]?.text ?? "")")
            }
        }
    }

    @Test func readsGivenAgainAreStillRecordedForTheOperatorAndForTheirVendor() async throws {
        try await TestMarket.withServer { market in
            _ = try await market.addProduct("Recorded table")
            let list = "/api/products?page_no=1&items_per_page=7"
            for _ in 0..<3 { #expect(try await market.send("GET", list).status == 200) }
            let anonymous = try await Self.records(count: 3) {
                market.market.records.anonymousRequests().filter {
                    String(decoding: $0.detail, as: UTF8.self).contains("items_per_page=7")
                }
            }
            #expect(anonymous.count == 3, "the operator sees every anonymous read")

            let named = "/api/products?page_no=1&items_per_page=8"
            let identifier = "identifier: \(TestMarket.papri.identifier)"
            for _ in 0..<3 { #expect(try await market.send("GET", named, headers: [identifier]).status == 200) }
            let papri = try #require(
                try await market.service.vendor(.identifier(TestMarket.papri.identifier)))
            let recorded = try await Self.records(count: 3) {
                try await market.market.records.requests(of: papri.id).filter {
                    String(decoding: $0.detail, as: UTF8.self).contains("items_per_page=8")
                }
            }
            #expect(recorded.count == 3, "a vendor's inspector sees every request naming them")
        }
    }

    /// Records are written after the answer leaves: read them until `count` are there, or for ten
    /// seconds.
    static func records(
        count: Int, _ read: () async throws -> [StoredRequestRecord]
    ) async throws -> [StoredRequestRecord] {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let records = try await read()
            if records.count >= count || ContinuousClock.now > deadline { return records }
            await Task.yield()
        }
    }
}

extension RepeatedReadsTests {
    /// After a change elsewhere the response is made again; a client that still holds those bytes
    /// gets 304 all the same, then and after.
    @Test func aRevalidationAfterAChangeElsewhereIsStillA304() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Unchanged stool")
            let path = "/api/products/\(product.id)"
            let first = try await market.send("GET", path)
            let tag = try #require(first.header("ETag"))
            try await market.addProduct("Another product")
            for _ in 0..<2 {
                let unchanged = try await market.send("GET", path, headers: ["If-None-Match: \(tag)"])
                #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.header("ETag") == tag)
                #expect(unchanged.header("Content-Length") == nil)
            }
            let other = try await market.send("GET", path, headers: ["If-None-Match: \"other\""])
            #expect(other.status == 200 && other.body == first.body)
        }
    }

    /// A signed-in seller's pages are given again like anyone's, yet every fault the seller
    /// rehearses still fails them, and switching the faults off brings the pages back.
    @Test func aSignedInSellersPagesAreGivenAgainButNeverPastTheFaultsTheyRehearse() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Seller's own lamp")
            var seller = StorefrontVisitor(market)
            _ = try await seller.signIn(TestMarket.papri)
            _ = try await seller.get("/")  // takes the sign-in's notice, which is shown once
            let cookies = "Cookie: " + seller.cookies.map { "\($0)=\($1)" }.joined(separator: "; ")
            let headers = [cookies, "Accept-Language: en"]
            let pages = ["/", "/products/\(product.id)"]
            for path in pages {
                let first = try await market.send("GET", path, headers: headers)
                #expect(first.status == 200 && first.text.contains("Sign out"), "\(path)")
                for _ in 0..<2 {
                    let again = try await market.send("GET", path, headers: headers)
                    #expect(Self.lines(again) == Self.lines(first) && again.body == first.body, "\(path)")
                }
            }

            let rehearsed = try await seller.post(
                "/inspector/rehearsal", ["fail": "100", "status": "502", "seed": "7"])
            #expect(rehearsed.status == 303)
            for path in pages {
                #expect(try await market.send("GET", path, headers: headers).status == 502, "\(path)")
            }
            #expect(try await market.send("GET", "/", headers: [Self.visitor]).status == 200, "only the seller's fail")
            _ = try await seller.post("/inspector/rehearsal", ["clear": "1"])
            for path in pages {
                let back = try await market.send("GET", path, headers: headers)
                #expect(back.status == 200 && back.text.contains("Sign out"), "\(path)")
            }
        }
    }
}

extension RepeatedReadsTests {
    /// Requests with bodies between kept reads: every response comes in the requests' order.
    @Test func requestsWithBodiesAmongThemAreAnsweredInTheOrderTheyCame() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Pipelined table")
            let detail = "GET /api/products/\(product.id) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            _ = try await market.send("GET", "/api/products/\(product.id)")
            let json = #"{"stock":4,"secret":"\#(TestMarket.papri.secret)"}"#
            let update =
                "PATCH /api/products/\(product.id) HTTP/1.1\r\nHost: 127.0.0.1\r\nidentifier: "
                + "\(TestMarket.papri.identifier)\r\nContent-Type: application/json\r\nContent-Length: "
                + "\(json.utf8.count)\r\n\r\n\(json)"
            let refused = "POST /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"
            let refusal = try await RawHTTP.send(Data(refused.utf8), port: market.port)
            #expect((400..<500).contains(refusal.status))
            let connection = try await RawConnection(port: market.port)
            try await connection.send(Data((detail + refused + detail + update + detail).utf8))
            let answers = try await connection.responses(5)
            #expect(answers.map(\.status) == [200, refusal.status, 200, 202, 200])
            #expect(answers[1].body == refusal.body)
            #expect(try answers[2].json["stock"] as? Int == Int(product.stock))
            #expect(try answers[4].json["stock"] as? Int == 4, "the read after the change sees it")
        }
    }

    /// A head SwiftNIO's parser refuses is answered 400 and the connection closed, whatever follows.
    @Test func aHeadTheParserRefusesIsABadRequest() async throws {
        try await TestMarket.withServer { market in
            for head in [
                "GET /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon in this line\r\n\r\n",
                "GET /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                "GET /api/products HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
            ] {
                let connection = try await RawConnection(port: market.port)
                try await connection.send(Data((head + "GET /healthChecker HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").utf8))
                #expect(try await connection.response().status == 400, "\(head)")
                #expect(try await connection.closedByServer(within: .seconds(30)), "\(head)")
            }
        }
    }

    /// A signed-in visitor whose browser lost its form token gets a new one with every page, and
    /// the page shows that very token: its forms (sign-out here) work, kept page or not.
    @Test func aSignedInPageShowsTheTokenItHandsOut() async throws {
        try await TestMarket.withServer { market in
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn()
            _ = try await visitor.get("/")  // takes the sign-in's notice, which is shown once
            let session = try #require(visitor.cookies["market_session"])
            let head = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(market.port)\r\nAccept-Language: en\r\n"
            var token = ""
            for _ in 0..<3 {
                let page = try await RawHTTP.send(
                    Data((head + "Cookie: market_session=\(session)\r\n\r\n").utf8), port: market.port)
                let cookie = try #require(page.header("Set-Cookie")?.firstMatch(of: /market_form_token=(\w{64})/))
                let shown = try #require(page.text.firstMatch(of: /name="form_token" value="(\w{64})"/))
                #expect(cookie.1 == shown.1)
                token = String(shown.1)
            }
            visitor.cookies = ["market_session": session, "market_form_token": token]
            let signedOut = try await visitor.post("/sign-out", [:])
            #expect(signedOut.status == 303)
            #expect(visitor.cookies["market_session"] == nil)
        }
    }
}
