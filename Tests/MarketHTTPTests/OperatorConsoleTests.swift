import Foundation
import MarketHTTPShared
import MarketModel
import MarketPages
import MarketTestSupport
import Testing

/// The operator's console in the storefront, as a teacher uses it.
@Suite struct OperatorConsoleTests {
    @Test func anOperatorSignsInSeesVendorsRegistersOneAndTakesAProductOffTheMarket() async throws {
        try await TestMarket.inProcess { market in
            let secret = try await market.service.registerOperator(name: "teacher")
            let product = try await market.addProduct("Off-topic", by: TestMarket.judy)
            var visitor = StorefrontVisitor(market)
            #expect(try await visitor.get("/operator").text.contains(#"action="/operator/sign-in""#))
            let wrong = try await visitor.post("/operator/sign-in", ["name": "teacher", "secret": "guessing"])
            #expect(wrong.status == 401)
            #expect(wrong.text.contains("That name and secret do not match an operator."))
            #expect(try await visitor.post("/operator/sign-in", ["name": "teacher", "secret": secret]).status == 303)
            let console = try await visitor.get("/operator")
            #expect(console.text.contains("Signed in as teacher."))
            #expect(console.text.contains(#"<td role="cell">judy<br>"#))

            #expect(try await visitor.post("/operator/vendors", ["name": "team 82", "vendor_id": "82"]).status == 303)
            let registered = try await visitor.get("/operator")
            let identifier = try #require(registered.text.firstMatch(of: /Identifier <code>([0-9a-f-]{36})<\/code>/)?.1)
            let newSecret = try #require(registered.text.firstMatch(of: /secret <code>([A-Za-z0-9]{16})<\/code>/)?.1)
            #expect(registered.text.contains("vendor_id 82"))
            let signedIn = try await market.send(
                "GET", "/inspector/requests", headers: ["identifier: \(identifier)", "secret: \(newSecret)"])
            #expect(signedIn.status == 200, "the new vendor's secret works at once")
            #expect(!(try await visitor.get("/operator")).text.contains(String(newSecret)), "shown once")

            let asked = try await visitor.post("/operator/products/remove", ["product_id": String(product.id)])
            #expect(asked.text.contains("Delete product \(product.id) “Off-topic” for good?"))
            #expect(asked.text.contains("It is judy&#39;s. It goes with its photos and cannot be brought back."))
            #expect(try await market.send("GET", "/api/products/\(product.id)").status == 200, "not before the answer")
            let removing = ["product_id": String(product.id), "confirmed": "yes"]
            #expect(try await visitor.post("/operator/products/remove", removing).status == 303)
            let removed = try await visitor.get("/operator")
            #expect(removed.text.contains("Product \(product.id) “Off-topic” is off the market"))
            #expect(try await market.send("GET", "/api/products/\(product.id)").status == 404)
            #expect(!(try await visitor.get("/operator")).text.contains("is off the market"), "said once")
            let missing = try await visitor.post("/operator/products/remove", ["product_id": "999999"])
            #expect(missing.status == 422)
            #expect(missing.text.contains(#"<div class="notice failed" role="alert">"#))
            #expect(missing.text.contains("No product has the id 999999"))

            let log = try await visitor.get("/operator").text
            #expect(log.contains("teacher removed product \(product.id) “Off-topic” of judy"))
            #expect(log.contains("teacher registered vendor team 82 (vendor_id 82)"))
            #expect(
                log.firstMatch(of: /<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">\d\d:\d\d:\d\d UTC<\/time>/)
                    != nil,
                "a moment for the page's script to say in the reader's zone, and said in UTC without it")

            var stranger = StorefrontVisitor(market)
            _ = try await stranger.get("/operator")
            let refused = try await stranger.post("/operator/products/remove", ["product_id": "1"])
            #expect(refused.text.contains(#"action="/operator/sign-in""#), "no operator, no removal")
        }
    }

    /// The console gives each team its address with a QR code for a phone: on a market that
    /// listens on the network, on this machine's network address rather than the loopback one the
    /// teacher opened it on.
    @Test func theConsoleGivesEachTeamItsAddressForPhonesOnTheNetwork() async throws {
        try await TestMarket.inProcess(configure: { $0.listensOnNetwork = true }) { market in
            _ = try await market.service.registerVendor(name: "team 82", id: 82)
            var teacher = try await Self.signedInTeacher(market, language: "ko")
            let console = try await teacher.get("/operator").text
            let host = LocalNetwork.addresses().first ?? "localhost"
            let address = "http://\(host)/teams/82"
            let addresses = /<td role="cell" class="addresses"><code>([^<]+\/teams\/82)<\/code>(.*?)<\/td>/
            let cell = try #require(console.firstMatch(of: addresses))
            #expect(cell.1 == address)
            #expect(cell.2.contains(#"<summary>QR 코드</summary><svg"#))
            #expect(cell.2.contains(#"aria-label="team 82 팀 주소 QR 코드""#))
            #expect(console.contains("앱의 기본 URL을 팀 주소로 바꾸면"))
            #expect(!console.contains("--lan으로 시작하세요") || host == "localhost")
            #expect(console.contains("같은 네트워크의 휴대폰에서는 아래 주소로 열립니다.") || host == "localhost")
        }
    }

    /// A market that listens on this machine alone gives the addresses as they are, and says that
    /// phones reach it once it is started with `--lan`.
    @Test func aMarketOnThisMachineAloneSaysPhonesNeedLAN() async throws {
        try await TestMarket.inProcess { market in
            var teacher = try await Self.signedInTeacher(market)
            let console = try await teacher.get("/operator").text
            #expect(console.contains("<code>http://localhost/teams/1</code>"))
            #expect(console.contains("phones and other computers reach the market once it is started with --lan"))
            #expect(!console.contains("Phones on the same network open"), "one thing said of phones, not two")
        }
    }

    @Test func aRefusedActIsSaidInKoreanOnAKoreanConsole() async throws {
        try await TestMarket.inProcess { market in
            var teacher = try await Self.signedInTeacher(market, language: "ko")
            #expect(try await teacher.post("/operator/vendors", ["name": "team 7", "vendor_id": "7"]).status == 303)
            let taken = try await teacher.post("/operator/vendors", ["name": "team 7 again", "vendor_id": "7"])
            #expect(taken.status == 422)
            #expect(taken.text.contains("7번 판매자가 이미 있습니다."))
            let zero = try await teacher.post("/operator/vendors", ["name": "team 0", "vendor_id": "0"])
            #expect(zero.text.contains("판매자 번호(vendor_id): 1 이상이어야 합니다"))
            #expect(!taken.text.contains("exists already") && !zero.text.contains("must be 1 or more"))
        }
    }

    /// A Korean console says the new-secret warning as a person would for none, one and many
    /// products, says "비밀번호" rather than "secret", and says "signed in" once.
    @Test func aNewSecretIsAskedAboutInKoreanForNoneOneAndManyProducts() async throws {
        try await TestMarket.inProcess { market in
            var teacher = try await Self.signedInTeacher(market, language: "ko")
            let console = try await teacher.get("/operator").text
            #expect(console.components(separatedBy: "로그인했습니다").count == 2, "said once: \(console)")

            _ = try await market.addProduct("Lamp", by: TestMarket.judy)
            for index in 1...3 { _ = try await market.addProduct("Chair \(index)", by: TestMarket.papri) }
            let said = [
                (TestMarket.nala, "아직 올린 상품은 없고"), (TestMarket.judy, "상품 1개는 그대로 남지만"),
                (TestMarket.papri, "상품 3개는 모두 그대로 남지만"),
            ]
            for (vendor, words) in said {
                let asked = try await teacher.post("/operator/vendors/secret", ["identifier": vendor.identifier])
                #expect(asked.text.contains(words), "\(vendor.identifier)")
                #expect(!asked.text.contains("0개"))
            }
            let confirmed = ["identifier": TestMarket.judy.identifier, "confirmed": "yes"]
            #expect(try await teacher.post("/operator/vendors/secret", confirmed).status == 303)
            let rekeyed = try await teacher.get("/operator").text
            #expect(rekeyed.firstMatch(of: /비밀번호 <code>[A-Za-z0-9]{16}<\/code>/) != nil)
            #expect(!rekeyed.contains("secret <code>"))
        }
    }

    @Test func aHiddenProductDisappearsFromEveryDialectAndPageUntilShownAgain() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Questionable", by: TestMarket.papri)
            var teacher = try await Self.signedInTeacher(market)
            let asked = try await teacher.post("/operator/products/hide", ["product_id": String(product.id)])
            #expect(asked.text.contains("Hide product \(product.id) “Questionable”?"))
            let hiding = ["product_id": String(product.id), "confirmed": "yes"]
            #expect(try await teacher.post("/operator/products/hide", hiding).status == 303)
            let hidden = try await teacher.get("/operator")
            #expect(hidden.text.contains("Product \(product.id) “Questionable” is hidden"))
            #expect(hidden.text.contains("Show again"))
            #expect(
                hidden.text.contains(
                    #"<td role="cell">papri<br><code class="identifier">\#(TestMarket.papri.identifier)</code></td>"#
                        + #"<td role="cell" data-label="Products">0 (1 hidden)</td>"#),
                "what buyers see, and the hidden apart")

            let list = try await market.send("GET", "/api/products?page_no=1&items_per_page=10").json
            #expect(list["total_count"] as? Int == 0)
            #expect(try await market.send("GET", "/api/products/\(product.id)").status == 404)
            #expect(try await market.send("GET", "/item/\(product.id)").status == 404)
            #expect(!(try await market.send("GET", "/items/1").text.contains("Questionable")))
            var shopper = StorefrontVisitor(market)
            #expect(!(try await shopper.get("/").text.contains("Questionable")))
            #expect(try await shopper.get("/products/\(product.id)").status == 404)
            let patch = try await MarketPeer(port: market.port).patch(
                Int(product.id), #"{"price":1,"secret":"\#(TestMarket.papri.secret)"}"#, by: TestMarket.papri)
            #expect(patch.status == 404, "not even its seller changes it while hidden")
            #expect(
                try patch.json["reason"] as? String
                    == "product \(product.id) was hidden by the market's operator; ask them to show it again",
                "and its seller is told why")
            let stranger = try await MarketPeer(port: market.port).patch(
                Int(product.id), #"{"price":1,"secret":"\#(TestMarket.judy.secret)"}"#, by: TestMarket.judy)
            #expect(try stranger.json["reason"] as? String == "no product has the id \(product.id)", "nobody else is")
            var seller = StorefrontVisitor(market, language: "ko")
            _ = try await seller.get("/sign-in")
            _ = try await seller.post(
                "/sign-in", ["identifier": TestMarket.papri.identifier, "secret": TestMarket.papri.secret])
            let page = try await seller.get("/products/\(product.id)")
            #expect(page.status == 404 && page.text.contains("마켓 운영자가 회원님의 \(product.id)번 상품을 숨겼습니다"))

            #expect(try await teacher.post("/operator/products/show", ["product_id": String(product.id)]).status == 303)
            #expect(try await teacher.get("/operator").text.contains("is shown again"))
            #expect(try await market.send("GET", "/api/products/\(product.id)").status == 200)
            #expect(try await shopper.get("/").text.contains("Questionable"))
            let log = try await teacher.get("/operator").text
            #expect(log.contains("teacher hid product \(product.id) “Questionable”"))
            #expect(log.contains("teacher showed product \(product.id) “Questionable” again"))
        }
    }

    @Test func aResetAsksForItsWordFirstAndTheLogSpeaksThePagesLanguage() async throws {
        try await TestMarket.inProcess { market in
            for number in 1...3 { try await market.addProduct("Class work \(number)", by: TestMarket.judy) }
            var teacher = try await Self.signedInTeacher(market, language: "ko")
            let asked = try await teacher.post("/operator/reset", [:])
            #expect(asked.status == 200)
            #expect(asked.text.contains("판매자 3명의 상품 3개가 모두 지워지고"))
            #expect(asked.text.contains("확인하려면 ‘초기화’를 입력하세요"))
            let mistyped = try await teacher.post("/operator/reset", ["confirmed": "yes", "typed": "reset"])
            #expect(mistyped.status == 422)
            #expect(mistyped.text.contains("‘초기화’를 그대로 입력해야 진행됩니다."))
            #expect(try await market.service.products(PageRequest(number: 1, itemsPerPage: 1)).totalCount == 3)
            // The reset itself, with the demo's real pictures, is the browser test's (OperatorTest);
            // here another act shows the log in the page's language.
            let hiding = ["product_id": "1", "confirmed": "yes"]
            #expect(try await teacher.post("/operator/products/hide", hiding).status == 303)
            #expect(try await teacher.get("/operator").text.contains("teacher: 1번 상품 “Class work 1”을 숨김"))
        }
    }

    /// A 2021 app names no vendor: its requests are the operator's to see, refusals explained.
    @Test func requestsThatNameNoVendorAreShownToTheOperator() async throws {
        try await TestMarket.withServer { market in
            let secret = try await market.service.registerOperator(name: "teacher")
            #expect(try await market.send("GET", "/items/1").status == 200)
            let boundary = "ryan"
            let refused = try await market.send(
                "POST", "/item", headers: ["Content-Type: multipart/form-data; boundary=\(boundary)"],
                body: wire(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nNo price\r\n--\(boundary)--\r\n"
                ))
            #expect(refused.status == 400)
            #expect(
                try await MarketPeer(port: market.port).create(
                    "Papri's", by: TestMarket.papri, images: [try TestImages.jpeg()]
                )
                .status == 201)
            let console = try await Self.console(showing: "<code>POST /item</code>", market: market, secret: secret)
            #expect(console.contains("<code>GET /items/1</code>"))
            #expect(console.contains("<code>POST /item</code>"))
            #expect(console.contains("descriptions is required"))
            #expect(!console.contains("<code>POST /api/products</code>"), "a vendor's request is theirs, not here")
        }
    }

    /// The console names the dialect it recognised in a request, as the market answered it.
    @Test func aJanuary2021DeleteIsNamedAsSuch() async throws {
        try await TestMarket.inProcess { market in
            let secret = try await market.service.registerOperator(name: "teacher")
            let id = try #require(
                try await V1Tests.post(market, V1Tests.appleWatch, images: [try TestImages.jpeg()]).json["id"] as? Int)
            let deleted = try await market.send(
                "DELETE", "/item/\(id)", headers: ["Content-Type: application/json"],
                body: Data(#"{"id":\#(id),"password":"RyanMarket"}"#.utf8))
            #expect(deleted.text == #"{"id":\#(id)}"#)
            let console = try await Self.console(
                showing: "<code>DELETE /item/\(id)</code>", market: market, secret: secret, language: "ko-KR")
            let row = try #require(console.firstRange(of: "<code>DELETE /item/\(id)</code>"))
            let rest = console[row.upperBound...]
            let named = rest.prefix(upTo: rest.firstRange(of: "</details>")?.lowerBound ?? rest.endIndex)
            #expect(named.contains(#"2021년 1월 방식의 삭제 요청: {&quot;id&quot;}로 답함"#), "\(named)")
        }
    }

    /// The console as the operator `teacher` sees it once it shows `line` (requests are recorded
    /// after their answers have gone), or after ten seconds.
    static func console(
        showing line: String, market: TestMarket, secret: String, language: String = "en"
    ) async throws -> String {
        var teacher = StorefrontVisitor(market, language: language)
        _ = try await teacher.get("/operator")
        _ = try await teacher.post("/operator/sign-in", ["name": "teacher", "secret": secret])
        let deadline = ContinuousClock.now + .seconds(10)
        var console = try await teacher.get("/operator").text
        while !console.contains(line), ContinuousClock.now < deadline {
            console = try await teacher.get("/operator").text
        }
        return console
    }
}

extension OperatorConsoleTests {
    /// A teacher signed in to the console of `market`, whose pages speak `language`.
    static func signedInTeacher(_ market: TestMarket, language: String = "en") async throws -> StorefrontVisitor {
        let secret = try await market.service.registerOperator(name: "teacher")
        var teacher = StorefrontVisitor(market, language: language)
        _ = try await teacher.get("/operator")
        _ = try await teacher.post("/operator/sign-in", ["name": "teacher", "secret": secret])
        return teacher
    }
}
