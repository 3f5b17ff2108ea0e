import Foundation
import MarketTestSupport
import Testing

@Suite struct DeleteTests {
    static let papri = TestMarket.papri

    static func productSecret(
        _ market: TestMarket, _ id: Int64, body: String = #"{"secret":"80sgmjjk9v"}"#,
        headers: [String] = ["Content-Type: application/json"]
    ) async throws -> RawResponse {
        try await market.send(
            "POST", "/api/products/\(id)/secret", headers: ["identifier: \(papri.identifier)"] + headers,
            body: Data(body.utf8))
    }

    @Test func secretAnswersAPlainTextTokenThatDeletesTheProductAndTheSweepItsUnsharedFiles() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Doomed", imageCount: 2)
            // The same first picture: stored once, under its content hash, for both products.
            let kept = try await market.addProduct("Kept", imageCount: 1)
            let filesBefore = try await market.imageFileCount()
            let secret = try await Self.productSecret(market, product.id)
            #expect(secret.status == 200)
            #expect(secret.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(secret.text.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/) != nil)
            #expect(secret.text != Self.papri.secret)
            let deleted = try await market.send(
                "DELETE", "/api/products/\(product.id)/\(secret.text)",
                headers: ["identifier: \(Self.papri.identifier)", "Content-Type: application/json"])
            #expect(deleted.status == 200)
            let body = try deleted.json
            #expect(body["name"] as? String == "Doomed")
            #expect((body["images"] as? [Any])?.count == 2)
            #expect(body["vendors"] is [String: Any])
            #expect(try await market.send("GET", "/api/products/\(product.id)").status == 404)
            #expect(try await market.send("GET", "/api/products/\(kept.id)").status == 200)
            #expect(try await market.imageFileCount() == filesBefore, "files go in the sweep, not at once")
            #expect(try await market.sweepImages() == 2)
            #expect(try await market.imageFileCount() == filesBefore - 2)
            let keptImage = try await market.send("GET", "/images/\(kept.images[0].originalKey)")
            #expect(keptImage.status == 200)
        }
    }

    @Test(arguments: [
        (#""80sgmjjk9v""#, [String]()),
        (#"{"secret":"80sgmjjk9v"}"#, [String]()),
        (#"{"secret": "80sgmjjk9v"}"#, ["Content-Type: application/x-www-form-urlencoded"]),
    ])
    func secretAcceptsABareStringAndAMissingContentType(body: String, headers: [String]) async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Any body")
            let response = try await Self.productSecret(market, product.id, body: body, headers: headers)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.text.count == 36)
        }
    }

    @Test func secretRefusesTheWrongVendorSecretAndOtherVendors() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Guarded")
            let wrong = try await Self.productSecret(market, product.id, body: #"{"secret":"guess"}"#)
            #expect(wrong.status == 401)
            let judy = TestMarket.judy
            let other = try await market.send(
                "POST", "/api/products/\(product.id)/secret", headers: ["identifier: \(judy.identifier)"],
                body: Data(#"{"secret":"\#(judy.secret)"}"#.utf8))
            #expect(other.status == 403)
            let missing = try await Self.productSecret(market, 9999)
            #expect(missing.status == 404)
        }
    }

    @Test func theVendorSecretOrAnotherProductsTokenDoesNotDelete() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Still here")
            let other = try await market.addProduct("Other")
            let otherToken = try await Self.productSecret(market, other.id).text
            for secret in [Self.papri.secret, otherToken, "827c04d7-7838-11ec-abfa-55347a6e30e7"] {
                let response = try await market.send(
                    "DELETE", "/api/products/\(product.id)/\(secret)", headers: ["identifier: \(Self.papri.identifier)"]
                )
                #expect(response.status == 400, "\(secret)")
                #expect(try response.json["field"] as? String == "product_secret")
            }
            #expect(try await market.productCount() == 2)
        }
    }

    /// The delete secret was only handed to someone who proved the right to change the product, so
    /// it is the proof: a 2021 item's password gets one for an app with an identifier of its own.
    @Test func theDeleteSecretAloneIsTheProof() async throws {
        try await TestMarket.inProcess { market in
            let first = try await market.addProduct("First")
            let second = try await market.addProduct("Second")
            let firstToken = try await Self.productSecret(market, first.id).text
            let secondToken = try await Self.productSecret(market, second.id).text
            let otherVendor = try await market.send(
                "DELETE", "/api/products/\(first.id)/\(firstToken)",
                headers: ["identifier: \(TestMarket.judy.identifier)"])
            #expect(otherVendor.status == 200)
            let anonymous = try await market.send("DELETE", "/api/products/\(second.id)/\(secondToken)")
            #expect(anonymous.status == 200)
            #expect(try await market.productCount() == 0)
        }
    }

    @Test func aCafelaDeleteWithAJSONStringBody() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("String body")
            let token = try await Self.productSecret(market, product.id).text
            let response = try await market.send(
                "DELETE", "//api/products/\(product.id)/\(token)", headers: ["identifier: \(Self.papri.identifier)"],
                body: Data(#""80sgmjjk9v""#.utf8))
            #expect(response.status == 200)
        }
    }

    @Test func aDeletedProductIsGoneForItsTokenToo() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Once")
            let token = try await Self.productSecret(market, product.id).text
            let path = "/api/products/\(product.id)/\(token)"
            #expect(
                try await market.send("DELETE", path, headers: ["identifier: \(Self.papri.identifier)"]).status == 200)
            #expect(
                try await market.send("DELETE", path, headers: ["identifier: \(Self.papri.identifier)"]).status == 404)
        }
    }
}

/// hoBahk reuses one URL-components object, so every request carries the list's query string.
@Suite struct StrayQueryTests {
    @Test func writesIgnoreAStrayListQuery() async throws {
        try await TestMarket.inProcess { market in
            let papri = TestMarket.papri
            let product = try await market.addProduct("Queried")
            let query = "?page_no=1&items_per_page=20"
            let patched = try await market.send(
                "PATCH", "/api/products/\(product.id)\(query)", headers: ["identifier: \(papri.identifier)"],
                body: Data(#"{"stock":7,"secret":"\#(papri.secret)"}"#.utf8))
            #expect(patched.status == 202)
            let token = try await market.send(
                "POST", "/api/products/\(product.id)/secret\(query)", headers: ["identifier: \(papri.identifier)"],
                body: Data(#"{"secret":"\#(papri.secret)"}"#.utf8))
            #expect(token.status == 200)
            let deleted = try await market.send(
                "DELETE", "/api/products/\(product.id)/\(token.text)\(query)",
                headers: ["identifier: \(papri.identifier)"])
            #expect(deleted.status == 200)
        }
    }
}
