import Foundation
import MarketTestSupport
import Testing

@Suite struct BrowsingTests {
    @Test(arguments: ["/healthChecker", "//healthChecker", "/healthChecker?", "/healthchecker"])
    func healthCheckerAnswersAQuotedOK(path: String) async throws {
        try await TestMarket.inProcess { market in
            let response = try await market.send("GET", path)
            #expect(response.status == 200)
            #expect(response.text == "\"OK\"")
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        }
    }

    @Test func listHasAllNineEnvelopeKeysAndNewestFirst() async throws {
        try await TestMarket.inProcess { market in
            for number in 1...12 { try await market.addProduct("Product \(number)") }
            let response = try await market.send("GET", "/api/products?page_no=2&items_per_page=5")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let page = try response.json
            #expect(page["page_no"] as? Int == 2)
            #expect(page["items_per_page"] as? Int == 5)
            #expect(page["total_count"] as? Int == 12)
            #expect(page["offset"] as? Int == 5)
            #expect(page["limit"] as? Int == 5)
            #expect(page["last_page"] as? Int == 3)
            #expect(page["has_next"] as? Bool == true)
            #expect(page["has_prev"] as? Bool == true)
            let items = try #require(page["pages"] as? [[String: Any]])
            #expect(items.map { $0["name"] as? String } == (3...7).reversed().map { "Product \($0)" })
        }
    }

    @Test func listItemsCarryEveryKeyStrictClientsDecode() async throws {
        try await TestMarket.withServer { market in
            try await market.addProduct("Apple Pencil", price: 165, discount: 5)
            let item = try #require(
                (try await market.send("GET", "/api/products").json["pages"] as? [[String: Any]])?.first)
            #expect(item["price"] as? Int == 165)
            #expect(item["discounted_price"] as? Int == 5)
            #expect(item["bargain_price"] as? Int == 160)
            #expect(item["currency"] as? String == "KRW")
            #expect(item["stock"] as? Int == 5)
            #expect(item["vendor_id"] as? Int == 1)
            let day = try #require(item["created_at"] as? String)
            #expect(day.wholeMatch(of: /\d{4}-\d{2}-\d{2}T00:00:00\.00/) != nil)
            #expect(item["issued_at"] as? String == day)
            let thumbnail = try #require(item["thumbnail"] as? String)
            #expect(thumbnail.hasPrefix("http://127.0.0.1:\(market.port)/images/"))
        }
    }

    @Test func pricesAreIntegersOnTheWire() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Whole", price: 2000)
            let text = try await market.send("GET", "/api/products").text
            #expect(text.contains(/"price":2000[,}]/))
            #expect(!text.contains("2000.0"))
        }
    }

    @Test func aPagePastTheEndIsEmptyNotAnError() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Only one")
            let page = try await market.send("GET", "/api/products?page_no=9&items_per_page=10").json
            #expect((page["pages"] as? [Any])?.isEmpty == true)
            #expect(page["has_next"] as? Bool == false)
            #expect(page["last_page"] as? Int == 1)
        }
    }

    @Test(arguments: [
        ("/api/products", 1, 20),
        ("/api/products?", 1, 20),
        ("//api/products?page_no=1&items_per_page=3", 1, 3),
        ("/api/products/?items_per_page=3&page_no=2", 2, 3),
        ("/api/products?items_per_page=200", 1, 200),
        ("/api/products?page_no=2&items_perpage=10", 2, 20),
        ("/api/products?page-no=2&items-per-page=4", 2, 4),
        ("/api/products?search_value=&page_no=1&items_per_page=7", 1, 7),
    ])
    func listAcceptsTheQueriesClientsSend(path: String, page: Int, perPage: Int) async throws {
        try await TestMarket.inProcess { market in
            let response = try await market.send("GET", path)
            #expect(response.status == 200)
            #expect(try response.json["page_no"] as? Int == page)
            #expect(try response.json["items_per_page"] as? Int == perPage)
        }
    }

    @Test func searchMatchesNameOrDescriptionIgnoringCase() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Apple Pencil")
            try await market.addProduct("Keyboard", description: "Works with an APPLE iPad.")
            try await market.addProduct("팥빙수", description: "Shaved ice.")
            try await market.addProduct("Bike")
            let found = try await market.send("GET", "/api/products?search_value=aPpLe").json
            #expect(found["total_count"] as? Int == 2)
            let korean = try await market.send("GET", "/api/products?search_value=%ED%8C%A5%EB%B9%99").json
            #expect((korean["pages"] as? [[String: Any]])?.first?["name"] as? String == "팥빙수")
        }
    }

    @Test func aListMayBeSortedAsTheStorefrontSortsItAndAnUnknownSortIsNamed() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Lamp", description: "A bag lamp.", price: 3000)
            try await market.addProduct("Bag strap", price: 5000, discount: 4000)
            try await market.addProduct("Handbag", price: 2000)
            try await market.addProduct("Bag", price: 9000)
            func names(_ query: String) async throws -> [String] {
                let page = try await market.send("GET", "/api/products?\(query)").json
                return (page["pages"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            }
            #expect(try await names("sort=lowest-price") == ["Bag strap", "Handbag", "Lamp", "Bag"])
            #expect(try await names("sort=highest-price&items_per_page=2") == ["Bag", "Lamp"])
            #expect(try await names("search_value=bag&sort=relevance") == ["Bag", "Bag strap", "Handbag", "Lamp"])
            #expect(
                try await names("search_value=bag") == ["Bag", "Handbag", "Bag strap", "Lamp"], "newest first as ever")
            #expect(
                try await names("search_value=bag&sort=") == ["Bag", "Handbag", "Bag strap", "Lamp"], "empty is none")
            let refused = try await market.send("GET", "/api/products?sort=cheapest")
            #expect(refused.status == 400)
            #expect(
                try refused.json["reason"] as? String
                    == "sort must be one of relevance, newest, lowest-price, highest-price, not \"cheapest\"")
        }
    }

    @Test func aCursorPagesAfterTheProductItNamesAndIsCheckedLikePageNumbers() async throws {
        try await TestMarket.inProcess { market in
            var ids: [Int64] = []
            for number in 1...6 { ids.append(try await market.addProduct("Cursor \(number)").id) }
            let page = try await market.send("GET", "/api/products?page_no=2&items_per_page=2&after=\(ids[4])").json
            #expect(
                (page["pages"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Cursor 4", "Cursor 3"])
            #expect(page["page_no"] as? Int == 2 && page["total_count"] as? Int == 6, "the envelope is as ever")
            let refused = try await market.send("GET", "/api/products?after=abc")
            #expect(refused.status == 400)
            #expect(try refused.json["reason"] as? String == "after must be a whole number, not \"abc\"")
        }
    }

    @Test func aMethodAnAddressDoesNotTakeIs405WithTheMethodsItTakes() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp")
            let put = try await market.send("PUT", "/api/products/\(product.id)")
            #expect(put.status == 405)
            let allowed = Set(
                (put.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(allowed.isSuperset(of: ["GET", "PATCH", "DELETE"]) && !allowed.contains("PUT"), "\(allowed)")
            #expect(try put.json["reason"] as? String != nil)
            let trace = try await market.send("TRACE", "//API/products/")
            #expect(trace.status == 405)
            #expect(trace.header("Allow")?.contains("POST") == true)
            #expect(try await market.send("GET", "/item").status == 405)
            let page = try await market.send("GET", "/sign-out", headers: ["Accept: text/html"])
            #expect(page.status == 405 && page.header("Allow") == "POST" && page.text.contains("<html"))
            #expect(try await market.send("PUT", "/nothing/here").status == 404)
            // The router takes a literal segment over a parameter: this is not a delete with the
            // secret "secret", so only what `/secret` itself takes is allowed.
            let delete = try await market.send("DELETE", "/api/products/\(product.id)/secret")
            #expect(delete.status == 405 && delete.header("Allow") == "POST")
        }
    }

    @Test func everyKindOfAnswerTellsBrowsersNotToSniffItsType() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp")
            let paths = [
                "/api/products", "/api/products/\(product.id)", "/api/products/999", "/item/\(product.id)",
                "/images/\(product.images[0].originalKey)", "/images/placeholder.png", "/", "/nothing",
                "/healthChecker",
            ]
            for path in paths {
                let response = try await market.send("GET", path)
                #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path) \(response.status)")
            }
            let page = try await market.send("GET", "/")
            let asset = try #require(page.text.firstMatch(of: /\/assets\/[^"]+/)).output
            #expect(try await market.send("GET", String(asset)).header("X-Content-Type-Options") == "nosniff")
        }
    }

    /// No name or description holds a control character, so a search for one finds nothing and
    /// asks no store (one cut text at the NUL, another refused it with a 500).
    @Test(arguments: ["/api/products?search_value=%00%00%00", "/api/products?search_value=app%00le", "/?q=a%00bc"])
    func aSearchWithAControlCharacterFindsNothing(path: String) async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Apple Pencil", description: "abc")
            let response = try await market.send("GET", path, headers: ["Accept: text/html"])
            #expect(response.status == 200)
            if path.hasPrefix("/api") {
                #expect(try response.json["total_count"] as? Int == 0)
            } else {
                #expect(!response.text.contains("Apple Pencil"))
            }
        }
    }

    @Test(arguments: [
        "/api/products?page_no=abc", "/api/products?page_no=0", "/api/products?items_per_page=100000",
        "/api/products?page_no=9223372036854775807&items_per_page=500", "/api/products?page_no=99999999999999999999",
    ])
    func listRefusesNonsensePagesWithAReason(path: String) async throws {
        try await TestMarket.inProcess { market in
            let response = try await market.send("GET", path)
            #expect(response.status == 400)
            let body = try response.json
            #expect(body["error"] as? Bool == true)
            #expect((body["reason"] as? String)?.isEmpty == false)
            #expect(body["field"] as? String != nil)
        }
    }

    /// A page before the first says what a page number must be, in both dialects' refusals.
    @Test(arguments: ["/api/products?page_no=-1", "/api/products?page_no=0&items_per_page=5", "/items/-1", "/items/0"])
    func aPageBeforeTheFirstIsRefusedWithWhatItMustBe(path: String) async throws {
        try await TestMarket.inProcess { market in
            let refused = try await market.send("GET", path)
            #expect(refused.status == 400)
            #expect(try refused.json["reason"] as? String == "page_no must be 1 or more")
            #expect(try refused.json["field"] as? String == "page_no")
        }
    }

    @Test func getsAcceptAStrayContentTypeAndIdentifier() async throws {
        try await TestMarket.inProcess { market in
            let response = try await market.send(
                "GET", "/api/products?page_no=1&items_per_page=10",
                headers: [
                    "Content-Type: multipart/form-data; boundary=--3F2A", "identifier: \(TestMarket.papri.identifier)",
                ])
            #expect(response.status == 200)
        }
    }

    @Test func detailHasImagesInOrderAndTheVendor() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Camera", description: "Line one.\nLine two.", imageCount: 3)
            for path in [
                "/api/products/\(product.id)", "//api/products/\(product.id)",
                "/api/products/\(product.id)?page_no=1&items_per_page=20",
            ] {
                let response = try await market.send("GET", path)
                #expect(response.status == 200)
                let detail = try response.json
                #expect(detail["description"] as? String == "Line one.\nLine two.")
                let images = try #require(detail["images"] as? [[String: Any]])
                #expect(images.map { $0["id"] as? Int } == product.images.map { Int($0.id) })
                #expect(images.allSatisfy { $0["succeed"] as? Bool == true && $0["issued_at"] is String })
                #expect(detail["thumbnail"] as? String == images[0]["thumbnail_url"] as? String)
                let vendor = try #require(detail["vendors"] as? [String: Any])
                #expect(vendor["name"] as? String == "papri")
                #expect(vendor["id"] as? Int == 1)
                #expect(vendor["created_at"] is String && vendor["issued_at"] is String)
            }
        }
    }

    @Test(arguments: ["/api/products/999", "/api/products/abc"])
    func anUnknownProductIsA404WithAReason(path: String) async throws {
        try await TestMarket.inProcess { market in
            let response = try await market.send("GET", path)
            #expect(response.status == 404)
            #expect(try response.json["reason"] as? String != nil)
        }
    }

    @Test func anUnknownPathIsAJSON404() async throws {
        try await TestMarket.inProcess { market in
            let response = try await market.send("GET", "/nothing/here")
            #expect(response.status == 404)
            #expect(try response.json["reason"] as? String == "nothing at GET /nothing/here")
        }
    }

    @Test func imagesAreServedWithAnETagAndForAYear() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Lamp")
            let detail = try await market.send("GET", "/api/products/\(product.id)").json
            let url = try #require((detail["images"] as? [[String: Any]])?.first?["url"] as? String)
            let path = String(url.dropFirst("http://127.0.0.1:\(market.port)".count))
            let image = try await market.send("GET", path)
            #expect(image.status == 200)
            #expect(image.header("Content-Type") == "image/jpeg")
            #expect(image.body.starts(with: [0xFF, 0xD8, 0xFF]))
            #expect(image.header("Cache-Control") == "public, max-age=31536000, immutable")
            let etag = try #require(image.header("ETag"))
            let again = try await market.send("GET", path, headers: ["If-None-Match: \(etag)"])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
        }
    }

    @Test(arguments: [
        "/images/nope.jpg", "/images/..%2F..%2Fmarket.sqlite", "/images/\(String(repeating: "a", count: 64)).gif",
    ])
    func unknownImagesAre404(path: String) async throws {
        try await TestMarket.inProcess { market in
            let response = try await market.send("GET", path)
            #expect(response.status == 404)
        }
    }

    @Test func imageURLsFollowTheHostTheClientUsed() async throws {
        try await TestMarket.withServer { market in
            try await market.addProduct("Hosted")
            let response = try await market.send(
                wire(
                    "GET /api/products HTTP/1.1\r\nHost: market-training.example:443\r\nX-Forwarded-Proto: https\r\n\r\n"
                ))
            let item = try #require((try response.json["pages"] as? [[String: Any]])?.first)
            #expect((item["thumbnail"] as? String)?.hasPrefix("https://market-training.example:443/images/") == true)
        }
    }
}
