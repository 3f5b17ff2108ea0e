import Foundation
import MarketTestSupport
import Testing

/// Broken answers a learner rehearses: each kind arrives as its name says, only for the vendor who
/// asked, only where the market succeeded, and the inspector says which answer was broken and how.
@Suite struct BrokenAnswerTests {
    /// Papri's product, and a market whose answers to papri break in the one way named.
    static func breaking(
        _ kind: String, _ market: TestMarket
    ) async throws -> (id: Int, detail: String, plain: RawResponse) {
        let created = try await MarketPeer(port: market.port).create(
            "Film camera", by: TestMarket.papri, images: [try TestImages.jpeg()])
        let id = try #require(try created.json["id"] as? Int)
        let set = try await InspectorTests.setFaults(#"{"broken_percent":100,"broken":["\#(kind)"]}"#, market)
        #expect(set.status == 200, "\(set.text)")
        let detail = "/api/products/\(id)"
        return (id, detail, try await market.send("GET", detail))
    }

    static func papris(_ market: TestMarket, _ path: String) async throws -> RawResponse {
        try await market.send("GET", path, headers: ["identifier: \(TestMarket.papri.identifier)"])
    }

    /// Papri's newest request as the inspector recorded it, once papri has sent `count`.
    static func recorded(_ market: TestMarket, count: Int = 2) async throws -> [String: Any] {
        let newest = try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: count).first
        return try #require(newest?["request"] as? [String: Any])
    }

    @Test(arguments: [
        ("missing_key", "price was left out: does your Decodable fail, or take it as optional?"),
        ("null", "name came as null: does your Decodable accept it?"),
        ("unknown_currency", "currency came as BTC, which your currency enum may not know"),
        ("extra_key", "an extra key delivery_fee came along: your Decodable should ignore it"),
    ])
    func aKeyIsBrokenAsNamedAndTheRestIsTheMarketsAnswer(kind: String, said: String) async throws {
        try await TestMarket.withServer { market in
            let (_, detail, plain) = try await Self.breaking(kind, market)
            let broken = try await Self.papris(market, detail)
            #expect(broken.status == 200)
            #expect(broken.header("Cache-Control") == "no-store" && broken.header("ETag") == nil)
            var expected = try plain.json
            switch kind {
            case "missing_key": expected["price"] = nil
            case "null": expected["name"] = NSNull()
            case "unknown_currency": expected["currency"] = "BTC"
            default: expected["delivery_fee"] = 3000
            }
            #expect(NSDictionary(dictionary: try broken.json) == NSDictionary(dictionary: expected))
            let record = try await Self.recorded(market)
            #expect((record["broken"] as? String)?.hasPrefix(said) == true, "\(record)")
            #expect(record["refusal"] == nil)
        }
    }

    @Test func aPriceComesAsTextAndADateInAnotherFormatOnEveryDialect() async throws {
        try await TestMarket.withServer { market in
            let (id, detail, plain) = try await Self.breaking("number_as_text", market)
            let price = try #require(try plain.json["price"] as? Int)
            #expect(try await Self.papris(market, detail).json["price"] as? String == String(price))
            #expect(
                (try await Self.recorded(market)["broken"] as? String)
                    == "price came as text (\"\(price)\"): does your Decodable accept it?")
            let set = try await InspectorTests.setFaults(#"{"broken_percent":100,"broken":["other_date"]}"#, market)
            #expect(set.status == 200)
            let v2 = try await Self.papris(market, detail).json["created_at"] as? String
            #expect(v2?.wholeMatch(of: #/\d{4}/\d\d/\d\d \d\d:\d\d:\d\d/#) != nil, "\(v2 ?? "none")")
            // The 2021 dialect's list: its first item's Unix seconds come as text in another format.
            let items = try await Self.papris(market, "/items/1").json["items"] as? [[String: Any]]
            let first = try #require(items?.first)
            #expect(first["id"] as? Int == id)
            #expect((first["registration_date"] as? String)?.wholeMatch(of: #/\d{4}/\d\d/\d\d .+/#) != nil)
        }
    }

    @Test func theJSONStopsHalfwayOrTheBodyIsEmptyOrAProxyAnswers() async throws {
        try await TestMarket.withServer { market in
            let (_, detail, plain) = try await Self.breaking("truncated", market)
            let truncated = try await Self.papris(market, detail)
            #expect(truncated.status == 200)
            #expect(truncated.body == plain.body.prefix(plain.body.count / 2))
            #expect(
                (try await Self.recorded(market)["broken"] as? String)?.hasPrefix(
                    "the JSON stops after \(plain.body.count / 2) of \(plain.body.count) bytes") == true)

            for (kind, status) in [("empty_body", 200), ("proxy_page", 502)] {
                let set = try await InspectorTests.setFaults(#"{"broken_percent":100,"broken":["\#(kind)"]}"#, market)
                #expect(set.status == 200)
                let broken = try await Self.papris(market, detail)
                #expect(broken.status == status)
                if kind == "empty_body" {
                    #expect(broken.body.isEmpty && broken.header("Content-Type")?.hasPrefix("application/json") == true)
                } else {
                    #expect(broken.header("Content-Type") == "text/html" && broken.text.contains("502 Bad Gateway"))
                    let record = try await Self.recorded(market, count: 4)
                    #expect(record["status"] as? Int == 502 && record["refusal"] == nil, "rehearsed, not refused")
                }
            }
        }
    }

    /// Only the body breaks: strict apps check for 201 after a register and 202 after an edit.
    @Test(arguments: ["truncated", "number_as_text", "empty_body"])
    func aBrokenAnswerKeepsTheMarketsSuccessStatus(kind: String) async throws {
        try await TestMarket.inProcess { market in
            let set = try await InspectorTests.setFaults(#"{"broken_percent":100,"broken":["\#(kind)"]}"#, market)
            #expect(set.status == 200, "\(set.text)")
            let create = try InspectorTests.quirkyCreate(price: "1500", as: TestMarket.papri)
            let registered = try await market.send(
                "POST", "/api/products",
                headers: ["identifier: \(TestMarket.papri.identifier)", "Content-Type: \(create.contentType)"],
                body: create.body)
            #expect(registered.status == 201, "\(kind): \(registered.text)")
            let id = try #require(try await market.service.products(.init(number: 1, itemsPerPage: 1)).items.first?.id)
            let edited = try await market.send(
                "PATCH", "/api/products/\(id)",
                headers: ["identifier: \(TestMarket.papri.identifier)", "Content-Type: application/json"],
                body: Data(#"{"price":2000,"secret":"\#(TestMarket.papri.secret)"}"#.utf8))
            #expect(edited.status == 202, "\(kind): \(edited.text)")
            #expect(try await Self.recorded(market)["broken"] != nil, "both answers were broken on purpose")
        }
    }

    @Test func onlyTheVendorsSuccessfulAPIAnswersBreak() async throws {
        try await TestMarket.withServer { market in
            let (_, detail, plain) = try await Self.breaking("null", market)
            let judys = try await market.send("GET", detail, headers: ["identifier: \(TestMarket.judy.identifier)"])
            #expect(judys.body == plain.body, "another vendor's answer is the market's")
            let missing = try await Self.papris(market, "/api/products/999999")
            let reason = try missing.json["reason"] as? String
            #expect(missing.status == 404 && reason != nil, "a refusal is as it was")
            let record = try await Self.recorded(market)
            #expect(record["broken"] == nil && record["refusal"] != nil)
        }
    }

    @Test func kindsThatDoNotExistAreRefusedInWords() async throws {
        try await TestMarket.withServer { market in
            let refused = try await InspectorTests.setFaults(#"{"broken_percent":10,"broken":["sideways"]}"#, market)
            #expect(refused.status == 400)
            #expect((try refused.json["reason"] as? String)?.hasSuffix("not sideways") == true)
            let tooMany = try await InspectorTests.setFaults(
                #"{"fail_percent":60,"drop_percent":20,"broken_percent":30}"#, market)
            #expect(try tooMany.json["reason"] as? String == "broken_percent must be from 0 to 20")
        }
    }
}
