import Foundation
import MarketTestSupport
import Testing

/// The openmarket host's flavour of the 2022 API (API reference §3.1, §3.10), picked by Host.
@Suite struct FlavorTests {
    static func get(_ market: TestMarket, _ path: String, host: String) async throws -> RawResponse {
        try await market.send(wire("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n"))
    }

    @Test func openmarketHostGetsCamelCaseEnvelopeVendorNamesAndDatesWithoutFraction() async throws {
        try await TestMarket.withServer { market in
            try await market.addProduct("Flavoured", description: "Shown in lists too.", imageCount: 2)
            let list = try await Self.get(
                market, "/api/products?page_no=1&items_per_page=10&search_value=flav",
                host: "openmarket.yagom-academy.kr")
            let page = try list.json
            for key in [
                "pageNo", "itemsPerPage", "totalCount", "offset", "limit", "lastPage", "hasNext", "hasPrev", "pages",
            ] {
                #expect(page[key] != nil, "\(key)")
            }
            #expect(page["page_no"] == nil)
            let item = try #require((page["pages"] as? [[String: Any]])?.first)
            #expect(item["vendorName"] as? String == "papri")
            #expect(item["description"] as? String == "Shown in lists too.")
            #expect((item["created_at"] as? String)?.wholeMatch(of: /\d{4}-\d{2}-\d{2}T00:00:00/) != nil)

            let detail = try await Self.get(
                market, "/api/products/\(item["id"] as? Int ?? 0)", host: "openmarket.yagom-academy.kr")
            let product = try detail.json
            #expect((product["vendors"] as? [String: Any]).map { Set($0.keys) } == ["id", "name"])
            let images = try #require(product["images"] as? [[String: Any]])
            #expect(
                images.allSatisfy {
                    $0["succeed"] == nil && ($0["issued_at"] as? String)?.hasSuffix("T00:00:00") == true
                })
        }
    }

    @Test func marketTrainingHostKeepsItsOwnFlavourWhateverTheDefault() async throws {
        try await TestMarket.withServer(flavor: .openmarket) { market in
            try await market.addProduct("Either")
            let training = try await Self.get(market, "/api/products", host: "market-training.yagom-academy.kr:443")
                .json
            #expect(training["page_no"] as? Int == 1)
            let item = try #require((training["pages"] as? [[String: Any]])?.first)
            #expect((item["created_at"] as? String)?.hasSuffix("T00:00:00.00") == true)
            #expect(item["vendorName"] == nil)
            let other = try await Self.get(market, "/api/products", host: "192.168.0.10:8080").json
            #expect(other["pageNo"] as? Int == 1, "any other host gets the configured default")
        }
    }

    @Test func archivedGivesAPathThatEveryOpenmarketClientCanDeleteWith() async throws {
        try await TestMarket.withServer { market in
            let papri = TestMarket.papri
            let kyo = try await market.addProduct("kyo12 uses the whole path")
            let rhovin = try await market.addProduct("rhovin keeps the last segment")
            func archived(_ id: Int64, host: String) async throws -> String {
                let body = #"{"secret":"\#(papri.secret)"}"#
                return try await market.send(
                    wire(
                        "POST /api/products/\(id)/archived HTTP/1.1\r\nHost: \(host)\r\nidentifier: \(papri.identifier)\r\n",
                        "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
                ).text
            }
            let host = "openmarket.yagom-academy.kr"
            let whole = try await archived(kyo.id, host: host)
            #expect(whole.hasPrefix("/api/products/"))
            let first = try await market.send(
                wire("DELETE \(whole) HTTP/1.1\r\nHost: \(host)\r\nidentifier: \(papri.identifier)\r\n\r\n"))
            #expect(first.status == 200)
            #expect(try first.json["name"] as? String == "kyo12 uses the whole path")
            let lastSegment =
                try await archived(rhovin.id, host: host).split(separator: "/").last.map(String.init) ?? ""
            let second = try await market.send(
                wire(
                    "DELETE /api/products/\(lastSegment) HTTP/1.1\r\nHost: \(host)\r\nidentifier: \(papri.identifier)\r\n\r\n"
                ))
            #expect(second.status == 200)
            #expect(try await market.productCount() == 0)

            // junho15 and wonbi39 append the text to `/api/products/`.
            let junho = try await market.addProduct("junho15 appends the path")
            let appended = try await archived(junho.id, host: host)
            #expect(try await market.send("DELETE", "/api/products/" + appended).status == 200)

            let trainingProduct = try await market.addProduct("On market-training")
            let trainingPath = try await archived(trainingProduct.id, host: "market-training.yagom-academy.kr")
            #expect(trainingPath.hasPrefix("/api/products/\(trainingProduct.id)/"))
            #expect(try await market.send("DELETE", trainingPath).status == 200)
        }
    }
}

/// One store behind every door: what one dialect makes, the others show, change and delete, with
/// prices converted, never confused.
@Suite struct CrossDialectTests {
    @Test func aV1ItemInV2ListsOfBothFlavoursAndBack() async throws {
        try await TestMarket.withServer { market in
            let form = V1Tests.ryanForm(V1Tests.appleWatch, images: [try TestImages.jpeg()])
            let created = try await market.send(
                "POST", "/item", headers: ["Content-Type: \(form.contentType)"], body: form.body)
            let id = try #require(try created.json["id"] as? Int)
            for host in ["market-training.yagom-academy.kr", "openmarket.yagom-academy.kr"] {
                let detail = try await FlavorTests.get(market, "/api/products/\(id)", host: host).json
                #expect(detail["name"] as? String == "Apple Watch", "\(host)")
                #expect(detail["description"] as? String == "Series 6.\nBarely worn.", "\(host)")
                #expect(detail["price"] as? Int == 450, "\(host)")
                #expect(detail["discounted_price"] as? Int == 50, "\(host): the discount amount")
                #expect(detail["bargain_price"] as? Int == 400, "\(host): what the buyer pays")
            }
        }
    }

    @Test func aV2ProductInTheV1List() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("From v2", price: 1000, discount: 250)
            let item = try #require((try await market.send("GET", "/items/1").json["items"] as? [[String: Any]])?.first)
            #expect(item["id"] as? Int == Int(product.id))
            #expect(item["title"] as? String == "From v2")
            #expect(item["price"] as? Int == 1000)
            #expect(item["discounted_price"] as? Int == 750, "v1's discounted_price is the sale price")
        }
    }

    @Test func aV1PasswordWorksAsTheSecretInV2AndAVendorSecretAsThePasswordInV1() async throws {
        try await TestMarket.withServer { market in
            let form = V1Tests.ryanForm(V1Tests.appleWatch, images: [try TestImages.jpeg()])
            let item = try #require(
                try await market.send("POST", "/item", headers: ["Content-Type: \(form.contentType)"], body: form.body)
                    .json["id"] as? Int)
            // A 2022 app with its own hard-coded identifier, presenting the item's password.
            let judy = TestMarket.judy
            let patched = try await market.send(
                "PATCH", "/api/products/\(item)", headers: ["identifier: \(judy.identifier)"],
                body: Data(#"{"price":500,"secret":"RyanMarket"}"#.utf8))
            #expect(patched.status == 202)
            #expect(try patched.json["discounted_price"] as? Int == 50, "a v2 price change keeps the discount")
            let token = try await market.send(
                "POST", "/api/products/\(item)/secret", headers: ["identifier: \(judy.identifier)"],
                body: Data(#"{"secret":"RyanMarket"}"#.utf8))
            #expect(token.status == 200)
            #expect(try await market.send("DELETE", "/api/products/\(item)/\(token.text)").status == 200)

            let product = try await market.addProduct("Papri's", price: 1000, discount: 100)
            let v1Patch = V1Tests.ryanForm(["password": TestMarket.papri.secret, "price": "2000"], images: [])
            let changed = try await market.send(
                "PATCH", "/item/\(product.id)", headers: ["Content-Type: \(v1Patch.contentType)"], body: v1Patch.body)
            #expect(changed.status == 200)
            #expect(try changed.json["discounted_price"] as? Int == 900, "a v1 price change keeps the sale price")
            let notTheirs = V1Tests.ryanForm(["password": TestMarket.judy.secret], images: [])
            let refused = try await market.send(
                "PATCH", "/item/\(product.id)", headers: ["Content-Type: \(notTheirs.contentType)"],
                body: notTheirs.body)
            #expect(refused.status == 404, "another vendor's secret is a wrong password")
            let deleted = try await market.send(
                "DELETE", "/item/\(product.id)", headers: ["Content-Type: application/json"],
                body: Data(#"{"password":"\#(TestMarket.papri.secret)"}"#.utf8))
            #expect(deleted.status == 200)
            #expect(try await market.productCount() == 0)
        }
    }
}

@Suite struct OpenRegistrationTests {
    static func create(_ market: TestMarket, identifier: String, secret: String) async throws -> RawResponse {
        let b = UUID().uuidString
        let body = wire(
            "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n",
            #"{"name":"Student work","descriptions":"d","price":1,"currency":"KRW","secret":"\#(secret)"}"#, "\r\n",
            "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\n\r\n",
            WirePiece(try TestImages.jpeg()), "\r\n--\(b)--\r\n")
        return try await market.send(
            "POST", "/api/products",
            headers: ["identifier: \(identifier)", "Content-Type: multipart/form-data; boundary=\(b)"],
            body: body)
    }

    @Test func anUnknownIdentifierBecomesAVendorOnFirstUseOnlyWhenOpen() async throws {
        let student = "c4a5a1c2-6941-11ed-a917-0d0f2f0c5e11"
        try await TestMarket.withServer { market in
            let closed = try await Self.create(market, identifier: student, secret: "classroom1")
            #expect(closed.status == 401)
        }
        try await TestMarket.withServer(openRegistration: true) { market in
            let first = try await Self.create(market, identifier: student, secret: "classroom1")
            #expect(first.status == 201)
            #expect(try await Self.create(market, identifier: student, secret: "classroom1").status == 201)
            #expect(try await Self.create(market, identifier: student, secret: "someone-else").status == 401)
            #expect(try await market.service.vendors().contains { $0.identifier == student })
            #expect(try await Self.create(market, identifier: "not-a-uuid", secret: "x").status == 400)
        }
    }
}
