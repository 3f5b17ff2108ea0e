import Foundation
import MarketCore
import MarketDemo
import MarketTestSupport
import Testing

/// A team address (`/teams/<vendor_id>`) makes every request an app sends through it the team's:
/// reads, pictures, refused and malformed requests, in both dialects, whether or not the request
/// names a vendor.
@Suite struct TeamAddressTests {
    /// What Hummingbird's testing names as every request's host.
    static let origin = "http://localhost"

    static func teamPath(_ market: TestMarket, _ vendor: DemoCatalogue.DemoVendor) async throws -> String {
        let id = try #require(try await market.service.vendor(.identifier(vendor.identifier))?.id)
        return "/teams/\(id)"
    }

    @Test func everyRequestThroughATeamAddressIsKeptForThatTeamAsItWasSent() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Seen through a team address")
            let team = try await Self.teamPath(market, TestMarket.nala)
            let list = try await market.send("GET", "\(team)/api/products?page_no=1&items_per_page=2")
            #expect(list.status == 200)
            let items = try #require(try list.json["pages"] as? [[String: Any]])
            let thumbnail = try #require(items.first?["thumbnail"] as? String)
            #expect(thumbnail.hasPrefix("\(Self.origin)\(team)/images/"), "pictures keep the team's address")
            let picture = try #require(URL(string: thumbnail)?.path)
            #expect(try await market.send("GET", picture).header("Content-Type") == "image/jpeg")
            #expect(try await market.send("GET", "\(team)//healthChecker").status == 200)
            let v1 = try await market.send("GET", "\(team)/items/1")
            let v1Thumbnail = try #require(
                (try v1.json["items"] as? [[String: Any]])?.first?["thumbnails"] as? [String])
            #expect(v1Thumbnail.allSatisfy { $0.hasPrefix("\(Self.origin)\(team)/images/") })
            #expect(try await market.send("GET", "\(team)/itemz").status == 404)
            let refused = try await market.send(
                "POST", "\(team)/api/products", headers: ["Content-Type: application/json"],
                body: Data("{}".utf8))
            #expect(refused.status == 400, "a create that names no vendor is refused, and is the team's to see")

            let requests = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 6)
            let seen = requests.compactMap { $0["request"] as? [String: Any] }.map {
                "\($0["method"] ?? "") \($0["path"] ?? "") \($0["status"] ?? "")"
            }
            #expect(
                seen.reversed() == [
                    "GET \(team)/api/products?page_no=1&items_per_page=2 200", "GET \(picture) 200",
                    "GET \(team)//healthChecker 200", "GET \(team)/items/1 200", "GET \(team)/itemz 404",
                    "POST \(team)/api/products 400",
                ])

            let plain = try await market.send("GET", "/api/products?page_no=1&items_per_page=2")
            let plainThumbnail = try #require(
                (try plain.json["pages"] as? [[String: Any]])?.first?["thumbnail"] as? String)
            #expect(plainThumbnail.hasPrefix("\(Self.origin)/images/"), "the plain address's answers are its own")
            let forged = try await market.send(
                "GET", "/api/products?page_no=1&items_per_page=2", headers: ["X-Forwarded-Prefix: /teams/9"])
            #expect(forged.body == plain.body, "only the market says which team address a request came through")
        }
    }

    @Test func aTeamRehearsesFailuresOnItsPicturesAndReadsWhileThePlainAddressIsUntouched() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Rehearsed")
            let team = try await Self.teamPath(market, TestMarket.papri)
            let list = try await market.send("GET", "\(team)/api/products?page_no=1&items_per_page=1")
            let thumbnail = try #require((try list.json["pages"] as? [[String: Any]])?.first?["thumbnail"] as? String)
            let picture = try #require(URL(string: thumbnail)?.path)
            #expect(try await InspectorTests.setFaults(#"{"fail_percent":100,"status":503}"#, market).status == 200)

            let failed = try await market.send("GET", picture)
            #expect(failed.status == 503 && failed.text.contains("a failure you rehearse"))
            #expect(try await market.send("GET", "\(team)/api/products?page_no=1&items_per_page=1").status == 503)
            #expect(try await market.send("GET", String(picture.dropFirst(team.count))).status == 200)
            #expect(try await market.send("GET", "/api/products?page_no=1&items_per_page=1").status == 200)
        }
    }

    @Test func aTeamAddressNoVendorHasIsRefusedAndATeamLearnsItsOwnFromTheHostItAsked() async throws {
        try await TestMarket.inProcess { market in
            let unknown = try await market.send("GET", "/teams/999/api/products?page_no=1&items_per_page=1")
            #expect(unknown.status == 404)
            #expect(
                try unknown.json["reason"] as? String
                    == "no team has the address /teams/999; `openmarket vendors list` shows each team's")
            let team = try await Self.teamPath(market, TestMarket.judy)
            let address = try await market.send(
                "GET", "/inspector/team", headers: InspectorTests.credentials(TestMarket.judy))
            #expect(try address.json["address"] as? String == "\(Self.origin)\(team)", "\(address.text)")
            let wrong = try await market.send(
                "GET", "/inspector/team",
                headers: ["identifier: \(TestMarket.judy.identifier)", "secret: wrong-secret"])
            #expect(wrong.status == 401 && !wrong.text.contains("address"))
        }
    }

    @Test func aLearnerAloneHasTheMarketsOwnAddressAsTheirTeamsForTheirAppButNotTheirBrowser() async throws {
        try await TestMarket.inProcess(team: TestMarket.nala.name) { market in
            #expect(try await market.send("GET", "/", headers: ["Accept: text/html"]).status == 200)
            #expect(try await market.send("GET", "/api/products?page_no=1&items_per_page=1").status == 200)
            #expect(try await market.send("GET", "/healthChecker").status == 200)
            let requests = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 2)
            #expect(
                requests.compactMap { ($0["request"] as? [String: Any])?["path"] as? String }
                    == ["/healthChecker", "/api/products?page_no=1&items_per_page=1"])
        }
    }

    /// A refused request gets the same lesson whichever address it came to: the example of a request the market takes.
    @Test func aRefusedRequestThroughATeamAddressIsExplainedAsAtThePlainAddress() async throws {
        try await TestMarket.inProcess { market in
            let team = try await Self.teamPath(market, TestMarket.nala)
            let boundary = "only-pictures"
            let body = wire(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\n",
                "Content-Type: image/jpeg\r\n\r\n", WirePiece(try TestImages.jpeg()), "\r\n--\(boundary)--\r\n")
            let register = try await market.send(
                "POST", "\(team)/api/products",
                headers: [
                    "identifier: \(TestMarket.nala.identifier)",
                    "Content-Type: multipart/form-data; boundary=\(boundary)",
                ], body: body)
            #expect(register.status == 400)
            #expect(try await market.send("GET", "\(team)/api/products?page_no=0").status == 400)
            let requests = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 2)
            let shapes = requests.compactMap {
                (($0["request"] as? [String: Any])?["refusal"] as? [String: Any])?["correct_shape"] as? String
            }
            #expect(shapes.count == 2)
            #expect(shapes.contains { $0.contains("a part named params holding JSON") }, "\(shapes)")
            #expect(shapes.contains { $0.contains("GET /api/products?page_no=1") }, "\(shapes)")
        }
    }

    /// Behind a proxy that listens on the team ports (deploy/nginx), the port the proxy forwarded
    /// in `X-Forwarded-Host` names the team.
    @Test func aTeamsOwnPortIsKnownFromTheHostAProxyForwarded() async throws {
        try await TestMarket.inProcess(configure: { $0.teamPorts = TeamPorts("8101-8140") }) { market in
            let found = try #require(try await market.service.vendor(.identifier(TestMarket.nala.identifier)))
            let nala = try await market.service.teamAddressUsed(by: found)
            let port = 8100 + (nala.teamSeat ?? 0)
            let list = try await market.send(
                "GET", "/api/products?page_no=1&items_per_page=1", headers: ["X-Forwarded-Host: class.local:\(port)"])
            #expect(list.status == 200)
            let requests = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 1)
            #expect(
                (requests.first?["request"] as? [String: Any])?["path"] as? String
                    == "/api/products?page_no=1&items_per_page=1")
            let address = try await market.send(
                "GET", "/inspector/team", headers: InspectorTests.credentials(TestMarket.nala))
            #expect(try address.json["port_address"] as? String == "http://localhost:\(port)")
            let outside = try await market.send(
                "GET", "/api/products?page_no=1&items_per_page=1", headers: ["X-Forwarded-Host: class.local:8141"])
            #expect(outside.status == 200)
        }
    }

    /// A team's inspector lists routes as the market knows them: the team address left out, and
    /// every picture one route, however many an app's list loaded.
    @Test func theInspectorsRoutesLeaveOutTheTeamAddressAndNameEveryPictureOnce() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("First", imageCount: 2)
            try await market.addProduct("Second")
            let team = try await Self.teamPath(market, TestMarket.nala)
            let list = try await market.send("GET", "\(team)/api/products?page_no=1&items_per_page=2")
            let thumbnails = try #require(try list.json["pages"] as? [[String: Any]]).compactMap {
                $0["thumbnail"] as? String
            }
            for thumbnail in thumbnails { _ = try await market.send("GET", try #require(URL(string: thumbnail)?.path)) }
            _ = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 3)
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn(TestMarket.nala)
            let page = try await visitor.get("/inspector").text
            let routes = page.matches(of: /<option value="([^"]+)"/).map { String($0.1) }
            #expect(routes.sorted() == ["GET /api/products", "GET /images/{name}"])
        }
    }

    /// A team address makes what an app asks the team's, never a page a person opens through it:
    /// a teacher who follows a link to the console through a team's address leaves nothing in that
    /// team's inspector, and meets none of its faults.
    @Test func aPageAPersonOpensThroughATeamAddressIsNotTheTeams() async throws {
        try await TestMarket.inProcess { market in
            let team = try await Self.teamPath(market, TestMarket.papri)
            #expect(try await InspectorTests.setFaults(#"{"fail_percent":100}"#, market).status == 200)
            #expect(try await market.send("GET", "\(team)/operator").status == 200)
            #expect(try await market.send("GET", "\(team)/", headers: ["Accept: text/html"]).status == 200)
            #expect(try await market.send("GET", "\(team)/healthChecker").status == 503)
            let requests = try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: 1)
            #expect(
                requests.compactMap { ($0["request"] as? [String: Any])?["path"] as? String } == [
                    "\(team)/healthChecker"
                ])
        }
    }
}
