import Foundation
import MarketCore
import MarketTestSupport
import Testing

/// Guessing secrets: after a few wrong ones for a vendor or an item (or many from one client), every
/// dialect and the sign-in answer 429 with Retry-After, checking nothing, until the wait is over;
/// then the right secret works again.
@Suite struct ThrottleTests {
    static let papri = TestMarket.papri

    static func patch(_ market: TestMarket, _ id: Int64, secret: String, client: String = "203.0.113.1")
        async throws -> RawResponse
    {
        try await market.send(
            "PATCH", "/api/products/\(id)",
            headers: ["identifier: \(papri.identifier)", "X-Forwarded-For: \(client)"],
            body: Data(#"{"stock":7,"secret":"\#(secret)"}"#.utf8))
    }

    @Test func wrongSecretsForOneVendorAreRefusedWith429UntilTheWaitIsOver() async throws {
        let clock = TestClock()
        try await TestMarket.withServer(clock: clock) { market in
            let product = try await market.addProduct("Guarded")
            for _ in 0..<5 {
                #expect(try await Self.patch(market, product.id, secret: "wrong-guess").status == 401)
            }
            let throttled = try await Self.patch(market, product.id, secret: "wrong-guess")
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") == "15")
            #expect(try throttled.json["reason"] as? String == "too many wrong secrets; try again in 15 seconds")
            let secretDuringWait = try await market.send(
                "POST", "/api/products/\(product.id)/secret",
                headers: ["identifier: \(Self.papri.identifier)", "X-Forwarded-For: 198.51.100.7"],
                body: Data(#"{"secret":"\#(Self.papri.secret)"}"#.utf8))
            #expect(secretDuringWait.status == 429, "the vendor is throttled for every client and every route")
            #expect(try await market.service.product(id: product.id).stock == 5)

            clock.advance(by: 14)
            #expect(try await Self.patch(market, product.id, secret: Self.papri.secret).header("Retry-After") == "1")
            clock.advance(by: 1)
            let right = try await Self.patch(market, product.id, secret: Self.papri.secret)
            #expect(right.status == 202)
            #expect(try await market.service.product(id: product.id).stock == 7)
            #expect(
                try await Self.patch(market, product.id, secret: "wrong-guess").status == 401,
                "the right secret starts the count again")
        }
    }

    @Test func a2021ItemsPasswordIsThrottledToo() async throws {
        let clock = TestClock()
        try await TestMarket.withServer(clock: clock) { market in
            let created = try await V1Tests.post(market, V1Tests.appleWatch, images: [try TestImages.jpeg()])
            let id = try #require(try created.json["id"] as? Int)
            func delete(_ password: String) async throws -> RawResponse {
                try await market.send(
                    "DELETE", "/item/\(id)", headers: ["Content-Type: application/json"],
                    body: Data(#"{"password":"\#(password)"}"#.utf8))
            }
            for _ in 0..<5 { #expect(try await delete("guess").status == 404) }
            let throttled = try await delete("RyanMarket")
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") == "15")
            #expect(try await market.send("GET", "/item/\(id)").status == 200)
            clock.advance(by: 15)
            #expect(try await delete("guess").status == 404)
            let longer = try await delete("RyanMarket")
            #expect(longer.header("Retry-After") == "30", "each further wrong password doubles the wait")
            clock.advance(by: 30)
            #expect(try await delete("RyanMarket").status == 200)
        }
    }

    @Test func oneClientGuessingAcrossManyIdentifiersIsThrottledAndOthersAreNot() async throws {
        try await TestMarket.withServer { market in
            var guesser = StorefrontVisitor(market)
            _ = try await guesser.get("/sign-in")
            func signIn(_ visitor: inout StorefrontVisitor, _ identifier: String, _ secret: String, from client: String)
                async throws -> RawResponse
            {
                try await visitor.post(
                    "/sign-in", ["identifier": identifier, "secret": secret], headers: ["X-Forwarded-For: \(client)"])
            }
            for _ in 0..<20 {
                let refused = try await signIn(&guesser, UUID().uuidString, "guess", from: "203.0.113.9")
                #expect(refused.status == 401)
            }
            let throttled = try await signIn(&guesser, Self.papri.identifier, Self.papri.secret, from: "203.0.113.9")
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") != nil)
            #expect(throttled.text.contains("Too many wrong secrets"))
            #expect(guesser.cookies["market_session"] == nil)

            var someoneElse = StorefrontVisitor(market)
            _ = try await someoneElse.get("/sign-in")
            let welcome = try await signIn(&someoneElse, Self.papri.identifier, Self.papri.secret, from: "192.0.2.44")
            #expect(welcome.status == 303)
        }
    }

    @Test func aClassroomBehindOneAddressMayBeAllowedMoreGuessesAndTheConsoleSaysHowMany() async throws {
        try await TestMarket.withServer(configure: {
            $0.secretThrottle = SecretThrottle(perAddress: 40, firstWait: .seconds(30))
        }) { market in
            var classroom = StorefrontVisitor(market)
            _ = try await classroom.get("/sign-in")
            for _ in 0..<30 {
                let mistyped = try await classroom.post(
                    "/sign-in", ["identifier": UUID().uuidString, "secret": "typo"],
                    headers: ["X-Forwarded-For: 198.51.100.7"])
                #expect(mistyped.status == 401, "thirty of forty")
            }
            let secret = try await market.service.registerOperator(name: "teacher")
            var teacher = StorefrontVisitor(market, language: "ko")
            _ = try await teacher.get("/operator")
            _ = try await teacher.post("/operator/sign-in", ["name": "teacher", "secret": secret])
            let console = try await teacher.get("/operator").text
            #expect(console.contains("잘못된 비밀번호는 주소 하나에서 40번까지 받고, 그다음에는 30초부터"))
        }
    }
}
