import Foundation
import MarketCore
import MarketTestSupport
import Testing

/// What the browser tests cannot see: the storefront's answers byte by byte, its cookies, and that
/// a refused form leaves the store as it was.
@Suite struct StorefrontTests {
    @Test func pagesShowWhatVendorsTypedAsTextNeverAsMarkup() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct(
                "<script>alert(1)</script>", description: "Line one\n<b>bold?</b>")
            var visitor = StorefrontVisitor(market)
            for path in ["/", "/products/\(product.id)"] {
                let page = try await visitor.get(path)
                #expect(page.status == 200)
                #expect(page.header("Content-Type") == "text/html; charset=utf-8")
                #expect(page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
                #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
                #expect(!page.text.contains("<script>alert(1)"))
            }
            let detail = try await visitor.get("/products/\(product.id)")
            #expect(detail.text.contains("Line one\n&lt;b&gt;bold?&lt;/b&gt;"))

            // Every character HTML gives a meaning, also one a combining mark follows.
            let quoted = try await market.addProduct("Tom & Jerry's \"best\" <\u{301}3 >")
            let page = try await visitor.get("/products/\(quoted.id)")
            #expect(page.text.contains("Tom &amp; Jerry&#39;s &quot;best&quot; &lt;\u{301}3 &gt;"))
        }
    }

    /// The same page has the same bytes on every server: a phrase book's order is not the process's.
    @Test func theScriptsPhrasesComeInAFixedOrder() async throws {
        try await TestMarket.inProcess { market in
            var visitor = StorefrontVisitor(market)
            let page = try await visitor.get("/?lang=en")
            let words = try #require(page.text.firstMatch(of: #/id="market-words">(\{[^<]*\})</#)?.1)
            let keys = words.matches(of: #/"(\w+)":"/#).map { String($0.1) }
            #expect(keys.count == 21)
            #expect(keys == keys.sorted())
        }
    }

    @Test func aFormWithoutTheVisitorsTokenOrFromAnotherSiteIsRefusedAndChangesNothing() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("한글 의자 – Guarded")
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.get("/products/\(product.id)")
            let path = "/products/\(product.id)/delete"
            let secret = ["secret": TestMarket.papri.secret]
            let noToken = try await visitor.post(path, secret, token: false)
            #expect(noToken.status == 403)
            #expect(noToken.text.contains("This form has expired or came from another site"))
            let guessed = secret.merging(["form_token": String(repeating: "0", count: 64)]) { $1 }
            #expect(try await visitor.post(path, guessed, token: false).status == 403)
            let elsewhere = [
                "https://evil.example", "null", "http://127.0.0.1:\(market.port + 1)",
                "https://127.0.0.1:\(market.port)", "http://127.0.0.1",
            ]
            for origin in elsewhere {
                let crossSite = try await visitor.post(path, secret, headers: ["Origin: \(origin)"])
                #expect(crossSite.status == 403, "Origin: \(origin)")
            }
            let proxied = try await visitor.post(
                path, ["secret": "wrong"],
                headers: [
                    "Origin: https://market.example", "X-Forwarded-Host: market.example", "X-Forwarded-Proto: https",
                ])
            #expect(proxied.status == 403)
            #expect(proxied.text.contains("That secret is not right"), "a proxy's own host name is ours")
            #expect(try await market.send("GET", "/api/products/\(product.id)").status == 200)
            let deleted = try await visitor.post(path, secret, headers: ["Origin: HTTP://127.0.0.1:\(market.port)"])
            #expect(deleted.status == 303, "the same origin, spelled otherwise")
            #expect(deleted.header("Location") == "/")
            #expect(try await market.send("GET", "/api/products/\(product.id)").status == 404)
            let catalogue = try await visitor.get("/")
            #expect(catalogue.text.contains("“한글 의자 – Guarded” is deleted."))
            #expect(!(try await visitor.get("/")).text.contains("is deleted."), "a notice is shown once")
        }
    }

    @Test func signingInSetsASealedHttpOnlySameSiteCookieThatAForgeryCannotReplace() async throws {
        try await TestMarket.inProcess { market in
            var visitor = StorefrontVisitor(market)
            let signedIn = try await visitor.signIn()
            #expect(signedIn.status == 303)
            #expect(signedIn.header("Location") == "/products/new")
            let cookie = try #require(signedIn.headers.first { $0.value.hasPrefix("market_session=") }?.value)
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains(TestMarket.papri.secret))
            let form = try await visitor.get("/products/new")
            #expect(form.status == 200)
            #expect(form.text.contains("Sell a product"))
            #expect(!form.text.contains(TestMarket.papri.secret))
            var forger = visitor
            let sealed = try #require(visitor.cookies["market_session"])
            forger.cookies["market_session"] = String(sealed.dropLast(2)) + (sealed.hasSuffix("AA") ? "BB" : "AA")
            let refused = try await forger.get("/products/new")
            #expect(refused.status == 303)
            #expect(refused.header("Location") == "/sign-in?next=/products/new")
            var wrong = StorefrontVisitor(market)
            _ = try await wrong.get("/sign-in")
            let denied = try await wrong.post(
                "/sign-in", ["identifier": TestMarket.papri.identifier, "secret": "nope", "next": "//evil.example"])
            #expect(denied.status == 401)
            #expect(denied.text.contains("do not match a vendor"))
            #expect(wrong.cookies["market_session"] == nil)
        }
    }

    @Test func theNextPageLinkContinuesAfterTheLastCardWhateverChangedAbove() async throws {
        try await TestMarket.inProcess { market in
            var ids: [Int64] = []
            for number in 1...25 { ids.append(try await market.addProduct("Card \(number)").id) }
            var visitor = StorefrontVisitor(market)
            let first = try await visitor.get("/")
            let next = try #require(first.text.firstMatch(of: /href="(\/\?page=2&amp;after=(\d+))" rel="next"/))
            #expect(Int64(next.2) == ids[5], "after the 20th card, the oldest shown")
            _ = try await market.service.deleteProduct(
                id: ids[24], proof: OwnershipProof(secret: TestMarket.papri.secret))
            try await market.addProduct("Newer")
            let second = try await visitor.get(String(next.1).replacingOccurrences(of: "&amp;", with: "&"))
            let names = second.text.matches(of: /Card (\d+)</).map { Int($0.1)! }
            #expect(names == [5, 4, 3, 2, 1])
        }
    }

    @Test func aRefusedRegistrationKeepsWhatWasTypedAndStoresNothing() async throws {
        try await TestMarket.inProcess { market in
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn()
            let (products, files) = (try await market.productCount(), try await market.imageFileCount())
            let refused = try await visitor.postMultipart(
                "/products/new",
                [
                    "name": "Kept typing", "price": "12 apples", "discount": "", "stock": "2", "currency": "USD",
                    "description": "Still here",
                ], images: [try TestImages.jpeg()])
            #expect(refused.status == 422)
            #expect(refused.text.contains("Price must be a whole number"))
            #expect(refused.text.contains(#"value="Kept typing""#))
            #expect(refused.text.contains(#"<option value="USD" selected>"#))
            #expect(refused.text.contains("Still here"))
            #expect(try await market.productCount() == products)
            #expect(try await market.imageFileCount() == files)
        }
    }

    @Test func anUploadBeyondWhatTheMarketTakesGetsAPageThatSaysSo() async throws {
        try await TestMarket.inProcess { market in
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn()
            let huge = Data(repeating: 0x41, count: 56 * 1024 * 1024)
            let refused = try await visitor.send(
                "POST", "/products/new", headers: ["Content-Type: multipart/form-data; boundary=x"], body: huge)
            #expect(refused.status == 413)
            #expect(refused.text.contains("That is more than the market takes at once"))
            #expect(try await market.productCount() == 0)
        }
    }

    @Test func editingNeedsTheProductsSecretAndAWrongOneChangesNothing() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp", price: 3000)
            var visitor = StorefrontVisitor(market)
            let prompt = try await visitor.get("/products/\(product.id)/edit")
            #expect(prompt.status == 200)
            #expect(prompt.text.contains("Enter the product’s secret"))
            let unpassed = try await visitor.post("/products/\(product.id)/edit", ["name": "Stolen", "price": "1"])
            #expect(unpassed.status == 403)
            let wrong = try await visitor.post(
                "/products/\(product.id)/edit/unlock", ["secret": TestMarket.judy.secret])
            #expect(wrong.status == 403)
            #expect(wrong.text.contains("That secret is not right for this product"))
            #expect(visitor.cookies["market_edit_pass"] == nil)
            let unlocked = try await visitor.post(
                "/products/\(product.id)/edit/unlock", ["secret": TestMarket.papri.secret],
                headers: ["X-Requested-With: fetch"])
            #expect(unlocked.status == 204)
            #expect(unlocked.header("Market-Location") == "/products/\(product.id)/edit")
            let form = try await visitor.get("/products/\(product.id)/edit")
            #expect(form.text.contains(#"value="3,000""#))
            let fields = [
                "name": "Lamp", "price": "2500", "discount": "0", "stock": "5", "currency": "KRW",
                "description": "A test product.",
            ]
            let saved = try await visitor.post("/products/\(product.id)/edit", fields)
            #expect(saved.status == 303)
            #expect(try await market.service.product(id: product.id).price == 2500)
            #expect(visitor.cookies["market_edit_pass"] == nil, "the pass is used up by saving")
        }
    }

    @Test func browsersGetAPageForUnknownAddressesAndAppsKeepTheirJSON() async throws {
        try await TestMarket.inProcess { market in
            let page = try await market.send(
                "GET", "/no/such/page", headers: ["Accept: text/html,*/*", "Accept-Language: en-US,en;q=0.9"])
            #expect(page.status == 404)
            #expect(page.text.contains("<h1>Not found</h1>"))
            let korean = try await market.send("GET", "/no/such/page", headers: ["Accept: text/html,*/*"])
            #expect(
                korean.text.contains("<h1>찾을 수 없습니다</h1>"), "a browser that names no language is spoken to in Korean")
            let app = try await market.send("GET", "/no/such/page")
            #expect(app.status == 404)
            #expect(try app.json["error"] as? Bool == true)
            #expect(
                try await market.send("GET", "/products/999", headers: ["Accept-Language: en"]).text.contains(
                    "There is no such product"))
            let asset = try await market.send("GET", "/assets/storefront.css")
            #expect(asset.status == 200)
            #expect(asset.header("Cache-Control")?.contains("immutable") == true)
        }
    }
}
