import Foundation
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketTestSupport
import Testing

/// Reads asked by an app that names no vendor get the very bytes and head that a request naming
/// one (which its inspector records) gets, for every flavour, host and encoding, and never a
/// stale one.
@Suite struct SameBytesForEveryClientTests {
    static let hosts = ["market-training.yagom-academy.kr", "openmarket.yagom-academy.kr", nil]

    /// Paths of each kept read, for the products given.
    static func reads(of ids: [Int64]) -> [[String]] {
        [
            ids.map { "/api/products/\($0)" },
            ids.map { "/item/\($0)" },
            (1...ids.count).map { "/api/products?page_no=\($0)&items_per_page=2" },
            (1...ids.count).map { "/items/\($0)" },
            ids.map { "/products/\($0)" },
        ]
    }

    /// Kinds of request: a new visitor, one who has been here, in Korean and in English, with
    /// compression and without.
    static let kinds = [[], [RepeatedReadsTests.visitor], ["Accept-Language: en"], ["Accept-Encoding: gzip"]]

    /// The head's lines but the date and a new visitor's own form token; a cookie's attributes in
    /// any order (Hummingbird writes them in no fixed one).
    static func lines(_ response: RawResponse) -> [String] {
        RepeatedReadsTests.lines(response).map { line in
            guard line.hasPrefix("set-cookie: ") else { return line }
            let cookie = line.dropFirst(12).replacing(/market_form_token=[0-9a-f]{64}/, with: "token")
            return "set-cookie: " + cookie.split(separator: "; ").sorted().joined(separator: "; ")
        }
    }

    /// The response to a request naming a vendor, which that vendor's inspector records.
    static func namingAVendor(_ peer: MarketPeer, _ path: String, _ headers: [String]) async throws -> RawResponse {
        try await peer.send("GET", path, headers: headers + ["identifier: \(TestMarket.nala.identifier)"])
    }

    @Test func aReadGetsTheSameResponseWhetherItNamesAVendorOrNot() async throws {
        try await TestMarket.withServer { market in
            var ids: [Int64] = []
            for number in 1...5 {
                let product = try await market.addProduct(
                    "Made lamp \(number)", description: String(repeating: "Bright. ", count: number * 24),
                    discount: number % 2 == 0 ? 100 : 0, imageCount: number % 3 + 1)
                ids.append(product.id)
            }
            for host in Self.hosts {
                let peer = MarketPeer(port: market.port, host: host)
                for paths in Self.reads(of: ids) {
                    for kind in Self.kinds {
                        for path in paths {
                            let given = try await peer.send("GET", path, headers: kind)
                            let routers = try await Self.namingAVendor(peer, path, kind)
                            #expect(given.status == 200, "\(path)")
                            #expect(Self.lines(given) == Self.lines(routers), "\(path) \(kind)")
                            #expect(given.body == routers.body, "\(path) \(kind) \(host ?? "")")
                        }
                    }
                }
            }
        }
    }

    @Test func aPageThatSetsACookieShowsWhatItSets() async throws {
        try await TestMarket.withServer { market in
            let first = try await market.addProduct("First chair")
            let second = try await market.addProduct("Second chair")
            _ = try await market.send("GET", "/products/\(first.id)", headers: [RepeatedReadsTests.visitor])
            let english = try await market.send(
                "GET", "/products/\(second.id)?lang=en", headers: [RepeatedReadsTests.visitor])
            #expect(
                english.text.contains("lang=\"en\"") && english.header("Set-Cookie")?.contains("market_lang=en") == true
            )
            let noticed = try await market.send(
                "GET", "/products/\(second.id)", headers: [RepeatedReadsTests.visitor + "; market_notice=Saved"])
            #expect(noticed.text.contains("Saved") && noticed.header("Set-Cookie")?.contains("market_notice=;") == true)
        }
    }

    @Test func missesAndRefusalsAmongKeptReadsGetTheirOwnResponses() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Only product")
            _ = try await market.send("GET", "/api/products/\(product.id)")
            _ = try await market.send("GET", "/api/products?page_no=1&items_per_page=10")
            #expect(try await market.send("GET", "/api/products/\(product.id + 1)").status == 404)
            #expect(try await market.send("GET", "/api/products/abc").status == 404)
            #expect(try await market.send("GET", "/api/products?page_no=0&items_per_page=10").status == 400)
            let search = try await market.send("GET", "/api/products?page_no=1&items_per_page=10&search_value=only")
            #expect(search.status == 200 && search.text.contains("Only product"))
            let none = try await market.send("GET", "/api/products?page_no=1&items_per_page=10&search_value=zebra")
            #expect(none.status == 200 && !none.text.contains("Only product"))
        }
    }

    @Test func aKeptResponseIsNeverStale() async throws {
        try await TestMarket.withServer { market in
            let first = try await market.addProduct("First stool")
            let second = try await market.addProduct("Second stool")
            _ = try await market.send("GET", "/api/products/\(first.id)")
            _ = try await market.send("GET", "/api/products?page_no=1&items_per_page=1")
            let proof = OwnershipProof(identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret)
            _ = try await market.service.updateProduct(
                id: second.id, ProductChanges(name: "Renamed stool"), proof: proof)
            #expect(try await market.send("GET", "/api/products/\(second.id)").text.contains("Renamed stool"))
            #expect(
                try await market.send("GET", "/api/products?page_no=2&items_per_page=1").text.contains("First stool"))
            _ = try await market.service.deleteProduct(id: second.id, proof: proof)
            #expect(try await market.send("GET", "/api/products/\(second.id)").status == 404)
            let page = try await market.send("GET", "/api/products?page_no=1&items_per_page=1")
            #expect(page.text.contains("First stool"))
            #expect(try page.json["total_count"] as? Int == 1)
        }
    }
}
