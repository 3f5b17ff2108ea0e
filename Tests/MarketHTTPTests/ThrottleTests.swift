import Foundation
import MarketCore
import MarketModel
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
            for guess in 1...5 {
                #expect(try await Self.patch(market, product.id, secret: "wrong-guess-\(guess)").status == 401)
            }
            let throttled = try await Self.patch(market, product.id, secret: "wrong-guess-6")
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
            for guess in 1...5 { #expect(try await delete("guess-\(guess)").status == 404) }
            let throttled = try await delete("RyanMarket")
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") == "15")
            #expect(try await market.send("GET", "/item/\(id)").status == 200)
            clock.advance(by: 15)
            #expect(try await delete("guess-6").status == 404)
            let longer = try await delete("RyanMarket")
            #expect(longer.header("Retry-After") == "30", "each further wrong password doubles the wait")
            clock.advance(by: 30)
            #expect(try await delete("RyanMarket").status == 200)
        }
    }

    /// Several real apps test their wrong-secret path on every run: the same wrong secret sent again teaches a guesser
    /// nothing and is not counted again, so such an app is never made to wait; different wrong secrets are counted.
    @Test func theSameWrongSecretSentAgainIsNotCountedAgain() async throws {
        try await TestMarket.withServer(clock: TestClock()) { market in
            let product = try await market.addProduct("Tested every run")
            for _ in 1...15 {
                #expect(try await Self.patch(market, product.id, secret: "the-app's-wrong-one").status == 401)
            }
            #expect(try await Self.patch(market, product.id, secret: Self.papri.secret).status == 202)
            for guess in 1...5 {
                #expect(try await Self.patch(market, product.id, secret: "guess-\(guess)").status == 401)
            }
            #expect(try await Self.patch(market, product.id, secret: Self.papri.secret).status == 429)
        }
    }

    /// An app's wrong secrets make the app's writes wait, never the learner who signs in with the right secret to read
    /// the inspector and see why; a person guessing sign-ins waits on their own count.
    @Test func anAppsWrongSecretsNeverKeepItsTeamOutOfTheInspector() async throws {
        try await TestMarket.withServer(clock: TestClock()) { market in
            let product = try await market.addProduct("Edited by a careless app")
            for guess in 1...5 {
                #expect(try await Self.patch(market, product.id, secret: "app-guess-\(guess)").status == 401)
            }
            #expect(try await Self.patch(market, product.id, secret: Self.papri.secret).status == 429)

            var learner = StorefrontVisitor(market)
            _ = try await learner.get("/sign-in")
            let signedIn = try await learner.post(
                "/sign-in", ["identifier": Self.papri.identifier, "secret": Self.papri.secret],
                headers: ["X-Forwarded-For: 203.0.113.1"])
            #expect(signedIn.status == 303, "\(signedIn.text)")
            let inspector = try await learner.get("/inspector")
            #expect(inspector.status == 200)
            #expect(inspector.text.contains("429"), "the inspector shows the app's requests that were made to wait")
            let script = try await market.send(
                "GET", "/inspector/requests",
                headers: InspectorTests.credentials(Self.papri) + ["X-Forwarded-For: 203.0.113.1"])
            #expect(script.status == 200)

            var guesser = StorefrontVisitor(market)
            _ = try await guesser.get("/sign-in")
            for guess in 1...5 {
                let refused = try await guesser.post(
                    "/sign-in", ["identifier": Self.papri.identifier, "secret": "person-guess-\(guess)"],
                    headers: ["X-Forwarded-For: 192.0.2.8"])
                #expect(refused.status == 401)
            }
            let waits = try await guesser.post(
                "/sign-in", ["identifier": Self.papri.identifier, "secret": Self.papri.secret],
                headers: ["X-Forwarded-For: 192.0.2.8"])
            #expect(waits.status == 429)
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

    /// A class behind one address (one NAT): each team waits for its own wrong secrets only, whether its app comes
    /// through its team port, its team address or the plain address with its identifier, and says why; vendors that
    /// are no team of a class share the address's allowance as before.
    @Test func aClassBehindOneAddressWaitsTeamByTeam() async throws {
        let teamPort = try FreePort.pick()
        // A clock that stands still: the waits are read as the market gives them, however slowly the test runs.
        try await TestMarket.withServer(
            clock: TestClock(),
            configure: {
                $0.secretThrottle = SecretThrottle(perAddress: 6)
                $0.teamPorts = TeamPorts(String(teamPort))
            }
        ) { market in
            let nat = "X-Forwarded-For: 198.51.100.7"
            let plain = MarketPeer(port: market.port)
            struct Team {
                var identifier: String
                var secret: String
                var peer: MarketPeer
                var prefix = ""
                var product: Int64 = 0
            }
            // papri through its own port (the first team to join), nala through its team address, and four teams the
            // teacher registered at the plain address.
            let papriVendor = try #require(try await market.service.vendor(.identifier(Self.papri.identifier)))
            #expect(try await market.service.teamAddressUsed(by: papriVendor).teamSeat == 1)
            var teams = [
                Team(identifier: Self.papri.identifier, secret: Self.papri.secret, peer: MarketPeer(port: teamPort)),
                Team(
                    identifier: TestMarket.nala.identifier, secret: TestMarket.nala.secret, peer: plain,
                    prefix: try await TeamAddressTests.teamPath(market, TestMarket.nala)),
            ]
            for number in 1...4 {
                let registered = try await market.service.registerVendor(
                    name: "team \(number)", secret: "team-secret-\(number)", asTeam: true)
                teams.append(Team(identifier: registered.vendor.identifier, secret: registered.secret, peer: plain))
            }
            for index in teams.indices {
                teams[index].product = try await market.service.createProduct(
                    ProductDraft(
                        name: "Lamp", description: "Ours.", currency: .krw, price: 1000, discount: 0, stock: 5),
                    images: [try TestImages.jpeg()],
                    by: OwnershipProof(identifier: teams[index].identifier, secret: teams[index].secret)
                ).id
            }
            func patch(_ team: Team, secret: String) async throws -> RawResponse {
                try await team.peer.send(
                    "PATCH", "\(team.prefix)/api/products/\(team.product)",
                    headers: ["identifier: \(team.identifier)", nat, "Content-Type: application/json"],
                    body: Data(#"{"stock":7,"secret":"\#(secret)"}"#.utf8))
            }
            for team in teams {
                for typo in 1...2 { #expect(try await patch(team, secret: "mistyped-\(typo)").status == 401) }
            }
            for team in teams {
                #expect(try await patch(team, secret: team.secret).status == 202, "twelve wrong secrets, two a team")
            }

            // papri guesses delete secrets, one product after another: papri alone waits.
            var guesses: [Int64] = []
            for _ in 0..<6 {
                guesses.append(try await market.addProduct("Guarded", by: Self.papri).id)
            }
            var waited: RawResponse?
            for id in guesses where waited == nil {
                let answer = try await teams[0].peer.send(
                    "DELETE", "/api/products/\(id)/\(UUID().uuidString)",
                    headers: ["identifier: \(Self.papri.identifier)", nat])
                if answer.status == 429 { waited = answer } else { #expect(answer.status == 400) }
            }
            #expect(waited?.header("Retry-After") == "15", "after six wrong secrets of papri's at this address")
            #expect(try await patch(teams[0], secret: Self.papri.secret).status == 429)
            for team in teams.dropFirst() {
                #expect(try await patch(team, secret: team.secret).status == 202, "other teams go on")
            }

            // Vendors that are no team share the address's six.
            let seller = try await market.service.registerVendor(name: "a shop's seller", secret: "seller-secret")
            let judyProduct = try await market.addProduct("Judy's", by: TestMarket.judy).id
            for (identifier, product) in [
                (TestMarket.judy.identifier, judyProduct), (seller.vendor.identifier, teams[1].product),
            ] {
                for guess in 1...3 {
                    let refused = try await plain.send(
                        "PATCH", "/api/products/\(product)",
                        headers: ["identifier: \(identifier)", nat, "Content-Type: application/json"],
                        body: Data(#"{"stock":1,"secret":"guess-\#(guess)"}"#.utf8))
                    #expect([401, 403].contains(refused.status))
                }
            }
            let judys = try await plain.send(
                "PATCH", "/api/products/\(judyProduct)",
                headers: ["identifier: \(TestMarket.judy.identifier)", nat, "Content-Type: application/json"],
                body: Data(#"{"stock":1,"secret":"\#(TestMarket.judy.secret)"}"#.utf8))
            #expect(judys.status == 429, "six wrong secrets of vendors that are no team, from one address")

            // Each inspector says why: papri's team at this address; judy's address, shared.
            var papri = StorefrontVisitor(market)
            _ = try await papri.signIn(Self.papri)
            let papriPage = try await InspectorPageTests.inspector(&papri, showing: "wrong secrets from this team")
            #expect(papriPage.text.contains("6 wrong secrets from this team at this address in the last hour"))
            var judy = StorefrontVisitor(market)
            _ = try await judy.signIn(TestMarket.judy)
            let judyPage = try await InspectorPageTests.inspector(&judy, showing: "wrong secrets from this address")
            #expect(judyPage.text.contains("6 wrong secrets from this address in the last hour"))
            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            let board = try await teacher.get("/operator/board").text
            #expect(board.contains("Made to wait after wrong secrets, last at"))
            let boardJSON = try await teacher.get("/operator/board.json").json
            let rows = try #require(boardJSON["teams"] as? [[String: Any]])
            let papriRow = try #require(rows.first { $0["name"] as? String == "papri" })
            let why = (papriRow["last_throttled"] as? [String: Any])?["why"] as? String
            #expect(
                why?.contains("wrong secrets from this team at this address") == true, "said in words: \(why ?? "")")
            #expect(
                try await teacher.get("/operator/board?view=projector").text.contains(
                    "<strong>1 of 6 teams:</strong> made to wait"))
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
