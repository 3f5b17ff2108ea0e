import Foundation
import MarketTestSupport
import Testing

/// The inspector as a learner uses it in a browser: signed in with their identifier and secret.
@Suite struct InspectorPageTests {
    /// The inspector once it shows `text`: requests are recorded after their answers have gone, so
    /// this asks again until then, for at most 10 s.
    static func inspector(_ visitor: inout StorefrontVisitor, showing text: String) async throws -> RawResponse {
        let deadline = ContinuousClock.now + .seconds(10)
        var page = try await visitor.get("/inspector")
        while !page.text.contains(text), ContinuousClock.now < deadline { page = try await visitor.get("/inspector") }
        return page
    }

    @Test func aSignedOutVisitorIsAskedToSignInFirst() async throws {
        try await TestMarket.inProcess { market in
            var visitor = StorefrontVisitor(market)
            let page = try await visitor.get("/inspector")
            #expect(page.status == 303)
            #expect(page.header("Location") == "/sign-in?next=/inspector")
        }
    }

    @Test func theInspectorShowsTheVendorsOwnRequestsAndWhyOneWasRefused() async throws {
        try await TestMarket.withServer { market in
            let peer = MarketPeer(port: market.port)
            #expect(
                try await peer.create("Mine", by: TestMarket.papri, price: -1, images: [try TestImages.jpeg()]).status
                    == 400)
            #expect(try await peer.create("Judy's", by: TestMarket.judy, images: [try TestImages.jpeg()]).status == 201)
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.papri)
            let page = try await Self.inspector(&visitor, showing: "Why it was refused")
            #expect(page.status == 200)
            #expect(page.text.contains("<code>POST /api/products</code>"))
            #expect(page.text.contains("price must be 0 or more"))
            #expect(page.text.contains("a part named params holding JSON"))
            #expect(page.text.contains("$OPENMARKET_SECRET"))
            #expect(
                page.text.contains("through your team address or your team&#39;s own port"),
                "the rehearsals apply to a team address's requests too, and the form says so")
            #expect(!page.text.contains(TestMarket.papri.secret), "the secret is masked")
            #expect(!page.text.contains("Judy&#39;s") && !page.text.contains("Judy's"), "not another vendor's request")
        }
    }

    /// Each resend command says what it needs before it runs, and reads every secret it sends from
    /// `$OPENMARKET_SECRET`: a delete's secret in its path included.
    @Test func theResendCommandSaysWhatItNeedsAndReadsEverySecretFromTheShell() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp", by: TestMarket.papri)
            let papri = "identifier: \(TestMarket.papri.identifier)"
            let issued = try await market.send(
                "POST", "/api/products/\(product.id)/secret", headers: [papri, "Content-Type: application/json"],
                body: Data(#"{"secret":"\#(TestMarket.papri.secret)"}"#.utf8))
            #expect(issued.status == 200)
            #expect(
                try await market.send("DELETE", "/api/products/\(product.id)/\(issued.text)", headers: [papri]).status
                    == 200)
            #expect(
                try await market.send("GET", "/api/products?page_no=1&items_per_page=1", headers: [papri]).status == 200
            )
            let create = try InspectorTests.quirkyCreate(price: "1500", as: TestMarket.papri)
            let created = try await market.send(
                "POST", "/api/products", headers: [papri, "Content-Type: \(create.contentType)"], body: create.body)
            #expect(created.status == 201)
            let records = try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: 4)
            let curls = records.compactMap { ($0["request"] as? [String: Any])?["curl"] as? String }
            let delete = try #require(curls.first { $0.hasPrefix("curl -X DELETE") })
            #expect(delete.contains(#"/api/products/\#(product.id)/'"$OPENMARKET_SECRET"'' -H"#), "\(delete)")
            #expect(!delete.contains("•"), "nothing masked is sent as it is shown")

            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.papri)
            let page = try await Self.inspector(&visitor, showing: "cat.jpg").text
            let rows = page.components(separatedBy: "<li>\n  <details>").dropFirst()
            func row(_ method: String) throws -> String { try #require(rows.first { $0.contains("<code>\(method) ") }) }
            #expect(try row("DELETE").contains("put the product&#39;s delete secret, the text POST …/secret answered"))
            #expect(try row("GET").contains("This command sends the same request again:"))
            #expect(!(try row("GET")).contains("OPENMARKET_SECRET"), "a read needs no secret")
            let register = try row("POST /api/products</code>")
            #expect(register.contains("put your secret in OPENMARKET_SECRET"))
            #expect(register.contains("put the files cat.jpg in the folder you run it from"))
        }
    }

    /// A picture the market answered is said as what it is, and shown small from its own address,
    /// which the inspector's page asking for it never adds to the team's requests.
    @Test func aPictureAnswerIsDescribedAndShownNotReadAsText() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp", by: TestMarket.papri)
            let team = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            let picture = "\(team)/images/\(try #require(product.images.first?.thumbnailKey))"
            let thumbnail = try await market.send("GET", picture)
            #expect(thumbnail.status == 200)
            let size = try #require(TestImages.size(of: thumbnail.body))
            let record = try #require(
                try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: 1).first?["request"]
                    as? [String: Any])
            #expect(
                record["answer"] as? String
                    == "a JPEG image, \(thumbnail.body.count) bytes, \(size.width) × \(size.height) pixels")

            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.papri)
            let page = try await Self.inspector(&visitor, showing: "answer-picture").text
            #expect(page.contains(#"<img class="answer-picture" src="\#(picture)""#))
            #expect(!page.contains("JFIF") && !page.contains("\u{FFFD}"), "no picture bytes read as text")
            #expect(try await visitor.get(picture, headers: ["Referer: http://localhost/inspector"]).status == 200)
            #expect(try await market.send("GET", "\(team)/healthChecker").status == 200)
            let paths = try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: 2).compactMap {
                ($0["request"] as? [String: Any])?["path"] as? String
            }
            #expect(paths == ["\(team)/healthChecker", picture], "the page's own picture is not the app's")
        }
    }

    /// Past the bytes a server may hold while its inspector writes requests down, a request is answered but not
    /// kept: the inspector says how many, in its JSON twin and on its page, instead of losing them silently.
    @Test func requestsThatCouldNotBeKeptAreCountedAndSaid() async throws {
        try await TestMarket.inProcess(configure: { $0.inspectorBacklogBytes = 256 * 1024 }) { market in
            let upload = try InspectorTests.quirkyCreate(price: "1000", as: TestMarket.papri)
            let big = upload.body + Data(count: 512 * 1024)
            let headers = ["identifier: \(TestMarket.papri.identifier)", "Content-Type: \(upload.contentType)"]
            #expect(try await market.send("POST", "/api/products", headers: headers, body: big).status == 201)
            #expect(try await market.send("GET", "/healthChecker", headers: headers.prefix(1).map { $0 }).status == 200)
            let answer = try await market.send(
                "GET", "/inspector/requests", headers: InspectorTests.credentials(TestMarket.papri))
            #expect(try answer.json["not_kept"] as? Int == 1)
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.papri)
            let page = try await Self.inspector(&visitor, showing: "/healthChecker").text
            #expect(page.contains("1 of your requests were answered but not kept here"))
            #expect(!page.contains("<code>POST /api/products</code>"))
        }
    }

    @Test func multipartMistakesAreShownWhereTheyAreWithWhatBelongsThere() async throws {
        try await TestMarket.withServer { market in
            let b = "learner-boundary"
            let params =
                #"{"secret":"\#(TestMarket.papri.secret)","name":"Cup","price":1000,"currency":"KRW","stock":1}"#
            let image = WirePiece(try TestImages.jpeg())
            let bodies = [
                // The part's head runs straight into its JSON.
                wire(
                    "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\(params)\r\n",
                    "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\n\r\n", image,
                    "\r\n--\(b)--\r\n"),
                // The boundary line runs straight into the part's head.
                wire(
                    "--\(b)Content-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n",
                    "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\n\r\n", image,
                    "\r\n--\(b)--\r\n"),
                // The body's boundary is not the one its Content-Type names.
                wire(
                    "--other-boundary\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n",
                    "--other-boundary--\r\n"),
            ]
            for body in bodies {
                let refused = try await market.send(
                    "POST", "/api/products",
                    headers: [
                        "identifier: \(TestMarket.papri.identifier)",
                        "Content-Type: multipart/form-data; boundary=\(b)",
                    ],
                    body: body)
                #expect(refused.status == 400)
            }
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.papri)
            let page = try await Self.inspector(&visitor, showing: "the body&#39;s parts begin with").text
            #expect(page.contains("Where the body went wrong"))
            #expect(
                page.contains(
                    "the head of part params has no blank line after it, so “{&quot;secret&quot;:&quot;•••&quot;,&quot;name&quot;:&quot;Cup&quot;,&quot;price&quot;:1000,&quot;currency&quot;:&quot;KRW&quot;,&quot;…” was read as more head"
                ))
            #expect(
                page.contains(
                    "after --learner-boundary came “Content-Disposition: form-data; name=&quot;params&quot;” where the line ends"
                ))
            #expect(
                page.contains(
                    "the body&#39;s parts begin with --other-boundary, but Content-Type names boundary=learner-boundary"
                ))
            #expect(!page.contains("no closing boundary (--learner-boundary--)"), "not forgiven: it was never there")
            #expect(!page.contains(TestMarket.papri.secret))
            var korean = StorefrontVisitor(market, language: "ko")
            _ = try await korean.signIn(TestMarket.papri)
            let said = try await korean.get("/inspector").text
            #expect(said.contains("본문에서 잘못된 곳"))
            #expect(said.contains("params 파트의 머리글 뒤에 빈 줄이 없어서"))
            #expect(said.contains("멀티파트 본문에 경계 &quot;learner-boundary&quot;가 한 번도 나오지 않습니다."))
        }
    }

    @Test func aKoreanPageExplainsInKoreanAndShowsTheBytesAsTheyWere() async throws {
        try await TestMarket.inProcess { market in
            let quirky = try InspectorTests.quirkyCreate(price: "-5")
            let refused = try await market.send(
                "POST", "/api/products",
                headers: ["identifier: \(TestMarket.nala.identifier)", "Content-Type: \(quirky.contentType)"],
                body: quirky.body)
            #expect(try refused.json["reason"] as? String == "price must be 0 or more", "the API speaks English")
            var visitor = StorefrontVisitor(market, language: "ko")
            _ = try await visitor.signIn(TestMarket.nala)
            let page = try await Self.inspector(&visitor, showing: "거절된 이유").text
            #expect(page.contains("price: 0 이상이어야 합니다"))
            #expect(page.contains("images라는 이름의 파트 1~5개에는"), "what the market accepts, in Korean")
            #expect(page.contains("첫 경계 앞에 CRLF가 있습니다 (무시함)"))
            #expect(page.contains("Content-Disposition: 뒤에 공백이 없습니다"))
            #expect(page.contains("camelCase 키 discountedPrice를 discounted_price로 읽었습니다"))
            #expect(page.contains("파일 파트 images: 선언한 형식은 image/jpeg, 실제 내용은 PNG 이미지입니다"))
            #expect(page.contains("<td>PNG 이미지</td>"), "the parts table says what the bytes are")
            #expect(page.contains("&quot;reason&quot;:&quot;price must be 0 or more&quot;"), "the answer as it was")
            let nala = try #require(try await market.service.vendor(.identifier(TestMarket.nala.identifier)))
            #expect(
                page.contains("우리 팀 주소는 http://localhost/teams/\(nala.id)입니다."), "where every request is the team's")
            #expect(page.contains("마켓의 원래 주소로 온 요청은 선생님 콘솔에만 보입니다"), "and where the others go")
        }
    }

    @Test func olderRequestsAreAPageAwayAndRefusedOnesOrOneRouteCanBeShownAlone() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Lamp", by: TestMarket.papri)
            let peer = MarketPeer(port: market.port)
            let negative = #"{"price":-1,"secret":"\#(TestMarket.papri.secret)"}"#
            #expect(try await peer.patch(Int(product.id), negative, by: TestMarket.papri).status == 400)
            for number in 1...55 {
                let patch = try await peer.patch(
                    Int(product.id), #"{"stock":\#(number),"secret":"\#(TestMarket.papri.secret)"}"#,
                    by: TestMarket.papri)
                #expect((200..<300).contains(patch.status))
            }
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.papri)
            let first = try await Self.inspector(&visitor, showing: "1–50 of 56")
            #expect(first.text.contains("1–50 of 56"))
            #expect(first.text.contains(#"href="/inspector?page=2" rel="next""#))
            let second = try await visitor.get("/inspector?page=2").text
            #expect(second.contains("51–56 of 56") && second.contains("price must be 0 or more"), "the oldest, refused")
            let refused = try await visitor.get("/inspector?refused=1").text
            #expect(refused.contains("1–1 of 1") && refused.contains("price must be 0 or more"))
            let route = "PATCH /api/products/{id}"
            let oneRoute = try await visitor.get(
                "/inspector?route=\(route.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            ).text
            #expect(oneRoute.contains("1–50 of 56") && oneRoute.contains(#"<option value="\#(route)" selected>"#))
        }
    }

    @Test func faultsSavedOnThePageFailTheVendorsRequestsUntilSwitchedOff() async throws {
        try await TestMarket.withServer { market in
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.papri)
            _ = try await visitor.get("/inspector")
            let refused = try await visitor.post("/inspector/rehearsal", ["fail": "120", "status": "503"])
            #expect(refused.status == 422)
            #expect(
                refused.text.contains(
                    #"value="120" aria-invalid="true" aria-describedby="fail-error"><p class="error" id="fail-error">Share of failures must be from 0 to 100</p>"#
                ), "what was typed stays, the mistake beside its field")
            #expect(refused.text.contains(#"name="status" inputmode="numeric" value="503""#))
            let saved = try await visitor.post("/inspector/rehearsal", ["fail": "100", "status": "502", "seed": "7"])
            #expect(saved.status == 303)
            let page = try await visitor.get("/inspector")
            #expect(page.text.contains("They are on now."))
            #expect(page.text.contains(#"name="status" inputmode="numeric" value="502""#))
            let peer = MarketPeer(port: market.port)
            #expect(
                try await peer.create("Failing", by: TestMarket.papri, images: [try TestImages.jpeg()]).status == 502)
            _ = try await visitor.post("/inspector/rehearsal", ["clear": "1"])
            #expect(
                try await peer.create("Working", by: TestMarket.papri, images: [try TestImages.jpeg()]).status == 201)
        }
    }

    @Test func brokenAnswersAreChosenOnThePageAndExplainedInKorean() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp", by: TestMarket.papri)
            var visitor = StorefrontVisitor(market, language: "ko")
            _ = try await visitor.signIn(TestMarket.papri)
            let form = try await visitor.get("/inspector").text
            #expect(form.contains(#"<input type="checkbox" name="broken_null" value="1"> 값 대신 null (name)"#))
            let refused = try await visitor.post("/inspector/rehearsal", ["fail": "90", "broken": "20"])
            #expect(refused.status == 422)
            #expect(refused.text.contains(#"<p class="error" id="broken-error">"#), "the mistake beside its field")
            let saved = try await visitor.post("/inspector/rehearsal", ["broken": "100", "broken_null": "1"])
            #expect(saved.status == 303)
            let page = try await visitor.get("/inspector").text
            #expect(page.contains(#"name="broken_null" value="1" checked>"#))
            #expect(!page.contains(#"name="broken_truncated" value="1" checked>"#))
            let answer = try await market.send(
                "GET", "/api/products/\(product.id)", headers: ["identifier: \(TestMarket.papri.identifier)"])
            #expect(try answer.json["name"] is NSNull)
            let shown = try await Self.inspector(&visitor, showing: "일부러 망가뜨린 응답").text
            #expect(shown.contains("<strong>일부러 망가뜨린 응답:</strong> name 값이 null로 옴: Decodable이 받아 주나요?"))
            #expect(shown.contains(#"<span class="tag">연습한 실패</span>"#))
            let storefront = try await visitor.get("/products/\(product.id)")
            #expect(storefront.status == 200 && storefront.text.contains("Lamp"), "pages are never broken")
        }
    }

    /// A recorded request can be sent again from the page, as recorded with its secret masked;
    /// one that carried pictures says why it cannot, since the market keeps none.
    @Test func aRecordedRequestCarriesWhatItsScriptSendsAgainWithTheSecretMasked() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Lamp", by: TestMarket.papri)
            let peer = MarketPeer(port: market.port)
            let wrong = try await peer.patch(
                Int(product.id), #"{"price":900,"secret":"guessed-wrong"}"#, by: TestMarket.papri)
            #expect(wrong.status == 401)
            _ = try await peer.create("Pictured", by: TestMarket.papri, price: -1, images: [try TestImages.jpeg()])
            var visitor = StorefrontVisitor(market, language: "ko")
            _ = try await visitor.signIn(TestMarket.papri)
            let page = try await Self.inspector(&visitor, showing: "PATCH /api/products/\(product.id)").text
            let replay = try #require(page.firstMatch(of: #/<form class="replay" data-replay="([^"]*)" hidden>/#)?.1)
            let request = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(String(replay).replacingOccurrences(of: "&quot;", with: "\"").utf8))
                    as? [String: Any])
            #expect(
                request["method"] as? String == "PATCH" && request["path"] as? String == "/api/products/\(product.id)")
            #expect((request["body"] as? String)?.contains(#""secret": "•••""#) == true, "\(request)")
            let headers = try #require(request["headers"] as? [[String]])
            #expect(
                headers.contains(["Content-Type", "application/json"]) && headers.contains { $0[0] == "identifier" })
            #expect(!headers.contains { $0[0].lowercased() == "host" || $0[0].lowercased() == "content-length" })
            #expect(page.contains(#"name="secret" type="password" autocomplete="off" required"#))
            #expect(page.contains("마켓은 사진을 보관하지 않으므로 사진을 담은 요청은 여기서 다시 보낼 수 없습니다"))
            #expect(!page.contains("guessed-wrong") && !page.contains(TestMarket.papri.secret))
        }
    }

    @Test func startingAfreshDeletesOnlyTheVendorsProductsAndOnlyWithTheirSecret() async throws {
        try await TestMarket.withServer { market in
            let peer = MarketPeer(port: market.port)
            #expect(
                try await peer.create("Papri's", by: TestMarket.papri, images: [try TestImages.jpeg()]).status == 201)
            #expect(try await peer.create("Judy's", by: TestMarket.judy, images: [try TestImages.jpeg()]).status == 201)
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.papri)
            _ = try await visitor.get("/inspector")
            _ = try await visitor.post("/inspector/products/delete", ["secret": "wrong-secret"])
            #expect(try await visitor.get("/inspector").text.contains("Nothing was deleted: that is not your secret."))
            #expect(try await market.productCount() == 2)
            _ = try await visitor.post("/inspector/products/delete", ["secret": TestMarket.papri.secret])
            #expect(try await visitor.get("/inspector").text.contains("Deleted 1 product. Your market is empty again."))
            #expect(try await market.productCount() == 1)
        }
    }
}
