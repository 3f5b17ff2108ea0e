import Foundation
import MarketCore
import MarketTestSupport
import Testing

/// The teacher's class board: what each team's app has done, as a page, JSON and CSV, and the
/// class's tallies for a projector.
@Suite struct ClassBoardTests {
    @Test func theBoardShowsWhatEachTeamsAppDidAndTheProjectorNamesNoTeam() async throws {
        try await TestMarket.inProcess { market in
            for name in ["One", "Two", "Three"] { try await market.addProduct(name) }
            _ = try await market.service.registerVendor(name: "=SUM(1,2)")
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
            #expect(page.contains("list, page 1 <span class=\"who\">20"), "a flow that worked, with when")
            #expect(page.contains("Most often: price must be 0 or more (1)."))
            #expect(page.contains("Met 1 rehearsed failures or broken answers and asked again after 1 of them."))
            let projector = try await teacher.get("/operator/board?view=projector").text
            #expect(projector.contains("1 of 4 teams: a next page"))
            #expect(projector.contains("1 of 4 teams: 2021 register"), "the 2021 steps once a team uses that API")
            #expect(projector.contains("3 teams never asked for a second page"))
            #expect(!projector.contains("nala") && !projector.contains("papri"), "no team named")

            let csv = try await teacher.get("/operator/board.csv")
            #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
            let lines = csv.text.split(separator: "\r\n")
            #expect(lines.first?.hasPrefix("\u{FEFF}vendor_id,Name,requests,\"list, page 1\"") == true)
            #expect(lines.contains { $0.contains(",nala,") && $0.contains("price must be 0 or more") })
            #expect(lines.contains { $0.contains(#","'=SUM(1,2)","#) }, "a spreadsheet never runs a team's name")
        }
    }

    /// The requests a team's inspector keeps are its newest only; the first time its app got
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
