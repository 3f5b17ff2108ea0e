import Foundation
import MarketTestSupport
import Testing

/// A sign-out, or a vendor's new secret, ends the session on the server: the old cookie, replayed,
/// opens nothing.
@Suite struct SignOutTests {
    static let sale = [
        "name": "Replayed", "description": "Sold in a test.", "price": "1000", "discount": "0", "stock": "1",
        "currency": "KRW",
    ]

    /// What a browser that kept the signed-in cookies sees now: the sell form, and what selling does.
    static func replay(
        _ cookies: [String: String], on market: TestMarket
    ) async throws -> (form: RawResponse, sale: RawResponse) {
        var replay = StorefrontVisitor(market)
        replay.cookies = cookies
        let form = try await replay.get("/products/new")
        replay.cookies = cookies
        let sale = try await replay.postMultipart("/products/new", sale, images: [try TestImages.jpeg()])
        return (form, sale)
    }

    @Test func aReplayedCookieAfterSignOutNeitherOpensTheSellFormNorSells() async throws {
        try await TestMarket.withServer { market in
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn()
            let kept = visitor.cookies
            let before = try await market.productCount()

            let signedOut = try await visitor.post("/sign-out", [:])
            #expect(signedOut.status == 303)
            #expect(visitor.cookies["market_session"] == nil)

            let (form, sale) = try await Self.replay(kept, on: market)
            #expect(form.status == 303)
            #expect(form.header("Location") == "/sign-in?next=/products/new")
            #expect(form.headers.contains { $0.value.hasPrefix("market_session=;") }, "the dead cookie is cleared")
            #expect(sale.status == 303)
            #expect(sale.header("Location") == "/sign-in?next=/products/new")
            #expect(try await market.productCount() == before)
        }
    }

    @Test func aNewSecretEndsEverySessionOfThatVendorAndNoOther() async throws {
        try await TestMarket.withServer { market in
            var papri = StorefrontVisitor(market)
            var papriOnPhone = StorefrontVisitor(market)
            var judy = StorefrontVisitor(market)
            _ = try await papri.signIn()
            _ = try await papriOnPhone.signIn()
            _ = try await judy.signIn(TestMarket.judy)

            let secret = try await market.service.replaceSecret(ofVendor: TestMarket.papri.identifier)
            #expect(secret != TestMarket.papri.secret)

            for cookies in [papri.cookies, papriOnPhone.cookies] {
                let (form, sale) = try await Self.replay(cookies, on: market)
                #expect(form.status == 303)
                #expect(sale.status == 303)
            }
            #expect(try await judy.get("/products/new").status == 200)
            let sold = try await judy.postMultipart("/products/new", Self.sale, images: [try TestImages.jpeg()])
            #expect(sold.status == 303)
            #expect(sold.header("Location")?.hasPrefix("/products/") == true)

            var again = StorefrontVisitor(market)
            _ = try await again.get("/sign-in")
            let old = try await again.post(
                "/sign-in", ["identifier": TestMarket.papri.identifier, "secret": TestMarket.papri.secret])
            #expect(old.status == 401)
            let new = try await again.post(
                "/sign-in", ["identifier": TestMarket.papri.identifier, "secret": secret, "next": "/products/new"])
            #expect(new.status == 303)
            #expect(try await again.get("/products/new").status == 200)
        }
    }
}
