import Foundation
import MarketTestSupport
import Testing

@Suite struct UpdateTests {
    static let papri = TestMarket.papri

    static func patch(_ market: TestMarket, _ id: Int64, _ json: String, headers: [String]? = nil) async throws
        -> RawResponse
    {
        try await market.send(
            "PATCH", "/api/products/\(id)", headers: headers ?? ["identifier: \(papri.identifier)"],
            body: Data(json.utf8))
    }

    @Test func tianaPatchWithoutContentTypeIsAccepted() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Old name", price: 1000, discount: 100)
            let response = try await Self.patch(
                market, product.id,
                #"{"name":"New name","descriptions":"Line\\nescaped by the app","price":2000,"stock":9,"secret":"\#(Self.papri.secret)"}"#,
                headers: ["identifier: \(Self.papri.identifier)"])
            #expect(response.status == 202)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let detail = try await market.send("GET", "/api/products/\(product.id)").json
            #expect(detail["name"] as? String == "New name")
            #expect(detail["description"] as? String == "Line\\nescaped by the app")
            #expect(detail["price"] as? Int == 2000)
            #expect(detail["stock"] as? Int == 9)
            #expect(detail["discounted_price"] as? Int == 100, "a price change keeps the discount")
            #expect(detail["bargain_price"] as? Int == 1900)
            #expect(try response.json["images"] is [Any] && response.json["vendors"] is [String: Any])
        }
    }

    @Test(arguments: [
        "Content-Type: application/x-www-form-urlencoded", "Content-Type: application/json", "Content-Type: text/plain",
    ])
    func theBodyIsJSONWhateverTheDeclaredType(contentType: String) async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Typed")
            let response = try await Self.patch(
                market, product.id, #"{"secret":"\#(Self.papri.secret)","discounted_price":10}"#,
                headers: ["identifier: \(Self.papri.identifier)", contentType])
            #expect(response.status == 202)
            #expect(try response.json["discounted_price"] as? Int == 10)
        }
    }

    @Test(arguments: [#""thumbnail_id":"%@""#, #""thumbnail_id":%@"#, #""thumbnailId":%@"#, #""thumbnailID":%@"#])
    func thumbnailIDPicksTheCoverInAnySpelling(spelling: String) async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Covers", imageCount: 3)
            let third = product.images[2]
            let key = spelling.replacingOccurrences(of: "%@", with: String(third.id))
            let response = try await Self.patch(market, product.id, #"{\#(key),"secret":"\#(Self.papri.secret)"}"#)
            #expect(response.status == 202, "\(response.text)")
            let detail = try await market.send("GET", "/api/products/\(product.id)").json
            #expect((detail["thumbnail"] as? String)?.hasSuffix(third.thumbnailKey) == true)
            let item = try #require(
                (try await market.send("GET", "/api/products").json["pages"] as? [[String: Any]])?.first)
            #expect((item["thumbnail"] as? String)?.hasSuffix(third.thumbnailKey) == true)
        }
    }

    /// Nala Market's update code sends the change as the `params` part of a multipart form, with
    /// camelCase keys, as it does for a create.
    @Test func nalaPatchAsAMultipartParamsPartIsReadLikeJSON() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Old name", price: 1000, discount: 100)
            let b = "NalaMarketBoundary-\(UUID().uuidString)"
            let params =
                #"{"name":"Nala's name","discountedPrice":300,"stock":4,"secret":"\#(Self.papri.secret)"}"#
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n",
                "\(params)\r\n--\(b)--\r\n")
            let response = try await market.send(
                "PATCH", "/api/products/\(product.id)",
                headers: ["identifier: \(Self.papri.identifier)", "Content-Type: multipart/form-data; boundary=\(b)"],
                body: body)
            #expect(response.status == 202, "\(response.text)")
            let detail = try await market.send("GET", "/api/products/\(product.id)").json
            #expect(detail["name"] as? String == "Nala's name")
            #expect(detail["discounted_price"] as? Int == 300)
            #expect(detail["stock"] as? Int == 4)
        }
    }

    @Test func aSecretOnlyPatchChangesNothingAndAnswersTheProduct() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Unchanged")
            let response = try await Self.patch(market, product.id, #"{"secret":"\#(Self.papri.secret)"}"#)
            #expect(response.status == 202)
            #expect(try response.json["name"] as? String == "Unchanged")
        }
    }

    @Test(
        arguments: [
            (#"{"discounted_price":5000,"secret":"80sgmjjk9v"}"#, 400, "discounted_price"),
            (#"{"price":50,"secret":"80sgmjjk9v"}"#, 400, "discounted_price"),
            (#"{"currency":"JPY","secret":"80sgmjjk9v"}"#, 400, "currency"),
            (#"{"thumbnail_id":999999,"secret":"80sgmjjk9v"}"#, 400, "thumbnail_id"),
            (#"{"name":"","stock":-3,"secret":"80sgmjjk9v"}"#, 400, "stock"),
            (#"{"name":"Sneaky","secret":"not-the-secret"}"#, 401, "secret"),
            (#"{"name":"No secret"}"#, 400, "secret"),
            (#"{"name": "#, 400, "body"),
            (String(repeating: "[", count: 100_000), 400, "body"),
            (#"{"secret":"80sgmjjk9v","x":"# + String(repeating: "{\"a\":", count: 50_000), 400, "body"),
        ] as [(String, Int, String)])
    func refusedChangesChangeNothing(json: String, status: Int, field: String) async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Kept", price: 1000, discount: 100)
            let before = try await market.send("GET", "/api/products/\(product.id)").json as NSDictionary
            let response = try await Self.patch(market, product.id, json)
            #expect(response.status == status, "\(response.text)")
            #expect(try response.json["field"] as? String == field)
            let after = try await market.send("GET", "/api/products/\(product.id)").json as NSDictionary
            #expect(after == before)
        }
    }

    @Test func anotherVendorCannotChangeAProduct() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Papri's")
            let judy = TestMarket.judy
            let response = try await Self.patch(
                market, product.id, #"{"name":"Judy's now","secret":"\#(judy.secret)"}"#,
                headers: ["identifier: \(judy.identifier)"])
            #expect(response.status == 403)
            #expect(try await market.send("GET", "/api/products/\(product.id)").json["name"] as? String == "Papri's")
        }
    }

    @Test func patchingAnUnknownProductIs404() async throws {
        try await TestMarket.inProcess { market in
            let response = try await Self.patch(market, 4242, #"{"name":"Ghost","secret":"\#(Self.papri.secret)"}"#)
            #expect(response.status == 404)
        }
    }
}
