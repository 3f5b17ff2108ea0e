import Foundation
import MarketApp
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

/// Lists, details and pages are kept and given again until the catalogue changes: a client can
/// revalidate them, and no change, through whichever door or connection it came, is ever missed.
@Suite struct KeptAnswersTests {
    static func reads(of id: Int64) -> [String] {
        [
            "/api/products?page_no=1&items_per_page=10", "/api/products/\(id)", "/items/1", "/item/\(id)", "/",
            "/products/\(id)",
        ]
    }

    @Test func everyReadCarriesAnETagAndARevalidationOfTheSameBytesIsA304WithoutThem() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Revalidated lamp")
            for path in Self.reads(of: product.id) {
                let first = try await market.send("GET", path)
                #expect(first.status == 200, "\(path)")
                let tag = try #require(first.header("ETag"), "\(path)")
                let again = try await market.send("GET", path)
                #expect(again.body == first.body && again.header("ETag") == tag, "\(path) is given again as it was")

                let unchanged = try await market.send("GET", path, headers: ["If-None-Match: \(tag)"])
                #expect(unchanged.status == 304, "\(path)")
                #expect(unchanged.body.isEmpty && unchanged.header("ETag") == tag, "\(path)")
                let weakly = try await market.send("GET", path, headers: ["If-None-Match: \"other\", W/\(tag)"])
                #expect(weakly.status == 304, "\(path): one of several tags, compared weakly")
                let other = try await market.send("GET", path, headers: ["If-None-Match: \"other\""])
                #expect(other.status == 200 && other.body == first.body, "\(path)")

                let gzipped = try await market.send("GET", path, headers: ["Accept-Encoding: gzip"])
                #expect(gzipped.header("ETag") == "W/\(tag)" || gzipped.header("Content-Encoding") == nil, "\(path)")
                let gzipUnchanged = try await market.send(
                    "GET", path, headers: ["Accept-Encoding: gzip", "If-None-Match: \(gzipped.header("ETag") ?? "")"])
                #expect(gzipUnchanged.status == 304, "\(path): a compressed copy revalidates too")
            }
        }
    }

    @Test func aChangeIsSeenByTheNextReadAndItsOldTagNoLongerMatches() async throws {
        try await TestMarket.inProcess { market in
            let kept = try await market.addProduct("Kept chair")
            var tags: [String: String] = [:]
            for path in Self.reads(of: kept.id) { tags[path] = try await market.send("GET", path).header("ETag") }

            let added = try await market.addProduct("Newly added table")
            let list = try await market.send("GET", "/api/products?page_no=1&items_per_page=10")
            #expect(list.text.contains("Newly added table"))
            let catalogue = try await market.send("GET", "/", headers: ["If-None-Match: \(tags["/"] ?? "")"])
            #expect(catalogue.status == 200 && catalogue.text.contains("Newly added table"))
            #expect(try await market.send("GET", "/items/1").text.contains("Newly added table"))

            let proof = OwnershipProof(identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret)
            _ = try await market.service.updateProduct(id: kept.id, ProductChanges(name: "Renamed chair"), proof: proof)
            for path in Self.reads(of: kept.id) {
                let read = try await market.send("GET", path, headers: ["If-None-Match: \(tags[path] ?? "")"])
                #expect(read.status == 200, "\(path)")
                #expect(read.text.contains("Renamed chair") && !read.text.contains("Kept chair"), "\(path)")
            }

            _ = try await market.service.deleteProduct(id: added.id, proof: proof)
            #expect(try await market.send("GET", "/api/products/\(added.id)").status == 404)
            #expect(try await market.send("GET", "/products/\(added.id)").status == 404)
            #expect(!(try await market.send("GET", "/").text.contains("Newly added table")))
        }
    }

    /// Another process on the same file: a change it writes is seen within a tenth of a second
    /// (`SQLiteMarketStore.othersSeenWithin`), by kept answers too.
    @Test func aChangeWrittenByAnotherProcessToTheSameFileIsSoonSeen() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp before")
            #expect(try await market.send("GET", "/api/products/\(product.id)").text.contains("Lamp before"))
            #expect(try await market.send("GET", "/").text.contains("Lamp before"))

            // Another process on the same file (here: a second market opened on the folder).
            let other = try await Market.open(MarketConfiguration(storage: .folder(market.directory)))
            let proof = OwnershipProof(identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret)
            _ = try await other.service.updateProduct(id: product.id, ProductChanges(name: "Lamp after"), proof: proof)

            try await waitUntil("the change is seen", limit: .seconds(10)) {
                try await market.send("GET", "/api/products/\(product.id)").text.contains("Lamp after")
            }
            #expect(try await market.send("GET", "/").text.contains("Lamp after"))
        }
    }

    @Test func aKeptPageIsNeverShownToAnotherVisitorAndEveryNewVisitorGetsATokenOfTheirOwn() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Seller's own vase")
            var seller = StorefrontVisitor(market)
            #expect(try await seller.signIn().status == 303)
            for _ in 0..<2 {
                let page = try await seller.get("/products/\(product.id)")
                #expect(page.text.contains("Sign out") && page.text.contains("/products/\(product.id)/edit"))
            }

            var tokens: Set<String> = []
            var bodies: Set<Data> = []
            for _ in 0..<3 {
                let stranger = try await market.send("GET", "/products/\(product.id)", headers: ["Accept-Language: en"])
                #expect(stranger.status == 200)
                #expect(!stranger.text.contains("Sign out") && !stranger.text.contains("/edit\""))
                let cookie = try #require(stranger.header("Set-Cookie"))
                #expect(cookie.hasPrefix("market_form_token="))
                tokens.insert(cookie)
                bodies.insert(stranger.body)
            }
            #expect(tokens.count == 3, "each new visitor gets a token of their own")
            #expect(bodies.count == 1, "and the same page")
        }
    }
}
