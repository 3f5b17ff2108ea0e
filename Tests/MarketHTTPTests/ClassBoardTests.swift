import Foundation
import MarketCore
import MarketTestSupport
import Testing

/// The teacher's class board: what each team's app has done, as a page, JSON and CSV, and the
/// class's tallies for a projector.
@Suite struct ClassBoardTests {
    /// A stock sent as text and a price sent as text are two liberties, each tallied under its own field with its
    /// own example, on the team's row and the projector alike.
    @Test func eachForgivenQuirkIsTalliedUnderItsOwnField() async throws {
        try await TestMarket.inProcess { market in
            let nala = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            for (price, stock) in [("15000", #""3""#), (#""15000""#, "3")] {
                let create = try InspectorTests.quirkyCreate(price: price, stock: stock)
                let answer = try await market.send(
                    "POST", "\(nala)/api/products",
                    headers: ["identifier: \(TestMarket.nala.identifier)", "Content-Type: \(create.contentType)"],
                    body: create.body)
                #expect(answer.status == 201, "\(answer.text)")
            }
            _ = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 2)
            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            let teams = try #require(try await teacher.get("/operator/board.json").json["teams"] as? [[String: Any]])
            let row = try #require(teams.first { $0["name"] as? String == "nala" })
            let forgiven = try #require(row["forgiven"] as? [[String: Any]]).compactMap { $0["quirk"] as? String }
            #expect(forgiven.contains(#"stock sent as text "3" and read as a number"#), "\(forgiven)")
            #expect(forgiven.contains(#"price sent as text "15000" and read as a number"#), "\(forgiven)")
            let projector = try await teacher.get("/operator/board?view=projector").text
            #expect(projector.contains("<strong>1 of 1 teams:</strong> stock sent as text"), "\(projector)")
            #expect(projector.contains("<strong>1 of 1 teams:</strong> price sent as text"))
        }
    }

    @Test func theBoardShowsWhatEachTeamsAppDidAndTheProjectorNamesNoTeam() async throws {
        try await TestMarket.inProcess { market in
            for name in ["One", "Two", "Three"] { try await market.addProduct(name) }
            _ = try await market.service.registerVendor(name: "=SUM(1,2)", asTeam: true)
            let nala = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            let list = try await market.send("GET", "\(nala)/api/products?page_no=1&items_per_page=2")
            _ = try await market.send("GET", "\(nala)/api/products?page_no=2&items_per_page=2")
            let first = try #require((try list.json["pages"] as? [[String: Any]])?.first)
            _ = try await market.send("GET", "\(nala)/api/products/\(try #require(first["id"] as? Int))")
            let thumbnail = try #require(first["thumbnail"] as? String)
            _ = try await market.send("GET", try #require(URL(string: thumbnail)?.path))
            for price in [#""15000""#, "-5"] {
                let create = try InspectorTests.quirkyCreate(price: price)
                _ = try await market.send(
                    "POST", "\(nala)/api/products",
                    headers: ["identifier: \(TestMarket.nala.identifier)", "Content-Type: \(create.contentType)"],
                    body: create.body)
            }
            let papri = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            _ = try await InspectorTests.setFaults(#"{"fail_percent":100}"#, market)
            #expect(try await market.send("GET", "\(papri)/api/products?page_no=1&items_per_page=2").status == 503)
            _ = try await InspectorTests.setFaults(#"{"fail_percent":0}"#, market)
            #expect(try await market.send("GET", "\(papri)/api/products?page_no=1&items_per_page=2").status == 200)
            let judy = try await TeamAddressTests.teamPath(market, TestMarket.judy)
            let item = V1Tests.ryanForm(V1Tests.appleWatch, images: [try TestImages.jpeg()])
            let v1 = try await market.send(
                "POST", "\(judy)/item", headers: ["Content-Type: \(item.contentType)"], body: item.body)
            #expect(v1.status == 200, "a 2021 item, which names no vendor, through judy's team address")
            _ = try await InspectorTests.requests(market, of: TestMarket.judy, atLeast: 1)
            _ = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 6)
            _ = try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: 2)

            var stranger = StorefrontVisitor(market)
            #expect(try await stranger.get("/operator/board.json").status == 401)
            #expect(try await stranger.get("/operator/board").text.contains(#"action="/operator/sign-in""#))

            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            let json = try await teacher.get("/operator/board.json").json
            let teams = try #require(json["teams"] as? [[String: Any]])
            let nalaRow = try #require(teams.first { $0["name"] as? String == "nala" })
            let worked = try #require(nalaRow["first_worked"] as? [String: String])
            #expect(Set(worked.keys) == ["list_first_page", "next_page", "detail", "pictures", "register"])
            #expect(nalaRow["refused"] as? Int == 1)
            #expect((nalaRow["commonest_refusal"] as? [String: Any])?["reason"] as? String == "price must be 0 or more")
            let forgiven = try #require(nalaRow["forgiven"] as? [[String: Any]]).compactMap { $0["quirk"] as? String }
            #expect(forgiven.contains("CRLF before the first boundary (ignored)"))
            let papriRow = try #require(teams.first { $0["name"] as? String == "papri" })
            #expect(papriRow["rehearsed_failures"] as? Int == 1 && papriRow["asked_again"] as? Int == 1)

            let judyRow = try #require(teams.first { $0["name"] as? String == "judy" })
            #expect((judyRow["first_worked"] as? [String: String])?.keys.sorted() == ["v1_register"])

            let page = try await teacher.get("/operator/board").text
            #expect(
                page.contains(#"list, page 1 <time class="who" datetime="20"#), "a flow that worked, with when")
            #expect(page.contains("Most often: price must be 0 or more (1)."))
            #expect(page.contains("Met 1 rehearsed failures or broken answers and asked again after 1 of them."))
            #expect(page.contains(/It asked again after \d+\.\d s\./), "one time said once, not as a range")
            let projector = try await teacher.get("/operator/board?view=projector").text
            #expect(projector.contains("<strong>1 of 4 teams:</strong> a next page"))
            #expect(
                projector.contains("<strong>1 of 4 teams:</strong> 2021 register"),
                "the 2021 steps once a team uses that API")
            #expect(projector.contains("<strong>3 teams:</strong> never asked for a second page"))
            #expect(!projector.contains("nala") && !projector.contains("papri"), "no team named")

            let csv = try await teacher.get("/operator/board.csv")
            #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
            let lines = csv.text.split(separator: "\r\n")
            #expect(lines.first?.hasPrefix("\u{FEFF}Vendor ID,Name,Requests kept,\"List, page 1\",A next page") == true)
            #expect(lines.contains { $0.contains(",nala,") && $0.contains("price must be 0 or more") })
            #expect(lines.contains { $0.contains(#","'=SUM(1,2)","#) }, "a spreadsheet never runs a team's name")
        }
    }

    /// A team is a vendor the teacher registered for the class, or one whose team address an app used:
    /// the demo's vendors that no app spoke for are not on the board, its CSV or its JSON.
    @Test func theBoardCountsOnlyTeamsTheTeacherRegisteredOrWhoseAddressIsInUse() async throws {
        try await TestMarket.inProcess { market in
            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            let registered = try await teacher.post("/operator/vendors", ["name": "team 82", "vendor_id": "82"])
            #expect(registered.status == 303)
            _ = try await market.service.registerVendor(name: "team 83", id: 83, asTeam: true)
            _ = try await market.service.registerVendor(name: "a shop's seller")
            let nala = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            #expect(try await market.send("GET", "\(nala)/healthChecker").status == 200)
            #expect(try await market.send("GET", "/teams/82/api/products?page_no=1").status == 200)
            let teams = try #require(try await teacher.get("/operator/board.json").json["teams"] as? [[String: Any]])
            #expect(Set(teams.compactMap { $0["name"] as? String }) == ["nala", "team 82", "team 83"])
            let projector = try await teacher.get("/operator/board?view=projector").text
            #expect(projector.contains("<strong>1 of 3 teams:</strong> list, page 1"))
            #expect(projector.contains("<strong>3 teams:</strong> never asked for a second page"))
            let csv = try await teacher.get("/operator/board.csv").text.split(separator: "\r\n")
            #expect(csv.count == 4, "a heading and three teams")
            #expect(!csv.contains { $0.contains("papri") || $0.contains("seller") })
        }
    }

    /// Asked again means the same method and address as the failed request, sent later: another product, another
    /// page or a read after a broken edit is not asked again.
    @Test func onlyTheSameRequestSentAgainCountsAsAskedAgain() async throws {
        try await TestMarket.inProcess { market in
            let lamp = try await market.addProduct("Lamp", by: TestMarket.papri)
            let cup = try await market.addProduct("Cup", by: TestMarket.papri)
            let papri = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            _ = try await InspectorTests.setFaults(#"{"fail_percent":100}"#, market)
            #expect(try await market.send("GET", "\(papri)/api/products/\(lamp.id)").status == 503)
            #expect(try await market.send("GET", "\(papri)/api/products?page_no=2&items_per_page=1").status == 503)
            _ = try await InspectorTests.setFaults(#"{"broken_percent":100,"broken":["truncated"]}"#, market)
            let edited = try await market.send(
                "PATCH", "\(papri)/api/products/\(cup.id)",
                headers: ["identifier: \(TestMarket.papri.identifier)", "Content-Type: application/json"],
                body: Data(#"{"stock":3,"secret":"\#(TestMarket.papri.secret)"}"#.utf8))
            #expect(edited.status == 202)
            _ = try await InspectorTests.setFaults("{}", market)
            #expect(try await market.send("GET", "\(papri)/api/products/\(cup.id)").status == 200)
            #expect(try await market.send("GET", "\(papri)/api/products?page_no=1&items_per_page=1").status == 200)
            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            func papriRow() async throws -> [String: Any] {
                _ = try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: 5)
                let teams = try #require(
                    try await teacher.get("/operator/board.json").json["teams"] as? [[String: Any]])
                return try #require(teams.first { $0["name"] as? String == "papri" })
            }
            let before = try await papriRow()
            #expect(before["rehearsed_failures"] as? Int == 3)
            #expect(before["asked_again"] as? Int == 0, "\(before)")
            #expect(try await market.send("GET", "\(papri)/api/products/\(lamp.id)").status == 200)
            _ = try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: 6)
            let after = try await papriRow()
            #expect(after["asked_again"] as? Int == 1)
            #expect((after["seconds_before_asking_again"] as? [Double])?.count == 1)
        }
    }

    /// Refusals are counted by kind, whichever product each named; of kinds met as often, the first met stays
    /// first however often the board is read.
    @Test func theCommonestRefusalIsAKindAndStaysPutOnEveryReload() async throws {
        try await TestMarket.inProcess { market in
            let nala = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            for id in [71, 74, 71, 74] {
                #expect(try await market.send("GET", "\(nala)/api/products/\(id)").status == 404)
            }
            for text in ["abc", "x"] {
                #expect(try await market.send("GET", "\(nala)/api/products?page_no=\(text)").status == 400)
            }
            _ = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 6)
            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            var seen: Set<String> = []
            for _ in 0..<5 {
                let page = try await teacher.get("/operator/board").text
                seen.insert(try #require(page.firstMatch(of: #/Most often: [^<]*/#)).0.description)
            }
            #expect(seen == ["Most often: asked for a product that is not there (4)."])
            for _ in 0..<2 {
                #expect(try await market.send("GET", "\(nala)/api/products?page_no=y").status == 400)
            }
            _ = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 8)
            let tied = try await teacher.get("/operator/board").text
            #expect(tied.contains("Most often: asked for a product that is not there (4)."), "the first met of a tie")
            for _ in 0..<1 {
                #expect(try await market.send("GET", "\(nala)/api/products?page_no=z").status == 400)
            }
            _ = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 9)
            let board = try await teacher.get("/operator/board").text
            #expect(board.contains("Most often: page_no must be a whole number, such as 12,000 (5)."))
        }
    }

    /// The 2021 steps are shown for the teams that used that API only; the projector shows them once one did.
    @Test func the2021StepsAreShownOnlyForTeamsThatUsedThatAPI() async throws {
        try await TestMarket.inProcess { market in
            let nala = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            let judy = try await TeamAddressTests.teamPath(market, TestMarket.judy)
            #expect(try await market.send("GET", "\(nala)/api/products?page_no=1").status == 200)
            #expect(try await market.send("GET", "\(judy)/items/1").status == 200)
            _ = try await InspectorTests.requests(market, of: TestMarket.judy, atLeast: 1)
            _ = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 1)
            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            let page = try await teacher.get("/operator/board").text
            let cards = page.components(separatedBy: "<article class=\"team\"").dropFirst()
            let nalaCard = try #require(cards.first { $0.contains("<h2>nala ") })
            let judyCard = try #require(cards.first { $0.contains("<h2>judy ") })
            #expect(!nalaCard.contains("2021"), "nala never used the 2021 API")
            #expect(judyCard.contains("2021 list, page 1"))
            let projector = try await teacher.get("/operator/board?view=projector").text
            #expect(projector.contains("<strong>1 of 2 teams:</strong> 2021 list, page 1"))
            #expect(
                !page.contains(#"href="/products/new""#) && !page.contains(#"href="/sign-in""#), "the teacher's header")
        }
    }

    /// The teacher rehearses for every team from the console: each team's app meets it through its team address,
    /// its inspector marks it as the class's and says what is on, a vendor that is no team is untouched, the log
    /// says who did it, and one press switches it off.
    @Test func theTeacherRehearsesForEveryTeamFromTheConsoleAndSwitchesItOff() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp", by: TestMarket.papri)
            var teacher = try await OperatorConsoleTests.signedInTeacher(market, language: "ko")
            let set = try await teacher.post(
                "/operator/rehearsal", ["fail": "100", "status": "500", "broken_number_as_text": "1"])
            #expect(set.status == 303)
            let console = try await teacher.get("/operator").text
            #expect(console.contains("이제 모든 팀의 앱이 이 장애를 만납니다: 100%는 500으로 실패"), "\(console)")
            #expect(console.contains("teacher: 반 전체에 장애 연습을 켬 (100%는 500으로 실패"))
            let nala = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            #expect(try await market.send("GET", "\(nala)/api/products/\(product.id)").status == 500)
            #expect(
                try await market.send(
                    "GET", "/api/products/\(product.id)", headers: ["identifier: \(TestMarket.papri.identifier)"]
                ).status == 200, "papri is no team")
            let record = try #require(
                try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 1).first?["request"]
                    as? [String: Any])
            #expect(record["for_every_team"] as? Bool == true && record["status"] as? Int == 500)
            var learner = StorefrontVisitor(market, language: "ko")
            _ = try await learner.signIn(TestMarket.nala)
            let inspector = try await InspectorPageTests.inspector(&learner, showing: "반 전체 연습")
            #expect(inspector.text.contains("선생님이 반 전체에 장애 연습을 켰습니다: 100%는 500으로 실패"))

            #expect(try await teacher.post("/operator/rehearsal", ["clear": "1"]).status == 303)
            #expect(try await teacher.get("/operator").text.contains("반 전체 장애 연습을 껐습니다."))
            #expect(try await market.send("GET", "\(nala)/api/products/\(product.id)").status == 200)
        }
    }

    /// The requests a team's inspector keeps are its newest only;    /// The requests a team's inspector keeps are its newest only; the first time its app got
    /// through each step stays on the board however many come after.
    @Test func aStepStaysOnTheBoardAfterItsRequestIsNoLongerKept() async throws {
        try await TestMarket.inProcess { market in
            let nala = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            #expect(try await market.send("GET", "\(nala)/api/products?page_no=1&items_per_page=2").status == 200)
            _ = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 1)
            for _ in 0..<RequestRecords.keptRequests {
                _ = try await market.send("GET", "\(nala)/healthChecker")
            }
            // Requests are kept just after their answers: wait until the list is no longer among them.
            try await waitUntil("the list request is pushed out of the kept ones") {
                let kept = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 1)
                return kept.count == RequestRecords.keptRequests
                    && kept.allSatisfy {
                        ($0["request"] as? [String: Any])?["path"] as? String == "\(nala)/healthChecker"
                    }
            }
            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            let teams = try #require(try await teacher.get("/operator/board.json").json["teams"] as? [[String: Any]])
            let nalaRow = try #require(teams.first { $0["name"] as? String == "nala" })
            #expect((nalaRow["first_worked"] as? [String: String])?.keys.sorted() == ["list_first_page"])
        }
    }

    /// Every way the API takes a next page counts as one: `page-no`, and a cursor (`after`).
    @Test func aNextPageCountsHoweverTheAppAsksForIt() async throws {
        try await TestMarket.inProcess { market in
            for name in ["One", "Two"] { try await market.addProduct(name) }
            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            for (vendor, query) in [
                (TestMarket.nala, "page-no=2&items-per-page=1"),
                (TestMarket.judy, "page_no=1&items_per_page=1&after=2"),
            ] {
                let team = try await TeamAddressTests.teamPath(market, vendor)
                #expect(try await market.send("GET", "\(team)/api/products?\(query)").status == 200)
                _ = try await InspectorTests.requests(market, of: vendor, atLeast: 1)
            }
            let teams = try #require(try await teacher.get("/operator/board.json").json["teams"] as? [[String: Any]])
            for name in ["nala", "judy"] {
                let row = try #require(teams.first { $0["name"] as? String == name })
                #expect((row["first_worked"] as? [String: String])?.keys.sorted() == ["next_page"], "\(name)")
            }
        }
    }
}
