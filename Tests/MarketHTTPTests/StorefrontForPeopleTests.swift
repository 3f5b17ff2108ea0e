import Foundation
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

/// The storefront as the people who shop there use it: in Korean or English, with searches typed
/// into its box, amounts typed as people write them, and only their own products to change.
@Suite struct StorefrontForPeopleTests {
    @Test func koreanFirstEnglishOnRequestAndAChoiceIsRemembered() async throws {
        try await TestMarket.inProcess { market in
            var korean = StorefrontVisitor(market, language: nil)
            let first = try await korean.get("/")
            #expect(first.text.contains(#"<html lang="ko""#))
            #expect(first.text.contains("판매하기"))
            #expect(first.text.contains(#"href="/?lang=en""#), "every page links to itself in English")
            var browser = StorefrontVisitor(market, language: "en-GB,en;q=0.9,ko;q=0.8")
            #expect(try await browser.get("/").text.contains(#"<html lang="en""#))
            var prefersKorean = StorefrontVisitor(market, language: "en;q=0.5, ko-KR")
            #expect(try await prefersKorean.get("/").text.contains(#"<html lang="ko""#))

            let switched = try await korean.get("/?lang=en&q=lamp")
            #expect(switched.text.contains(#"<html lang="en""#))
            #expect(switched.text.contains(#"href="/?q=lamp&amp;lang=ko""#), "the switch keeps the search")
            #expect(korean.cookies["market_lang"] == "en")
            #expect(try await korean.get("/sign-in").text.contains("Sign in to sell"), "the choice is remembered")
            _ = try await korean.get("/?lang=ko")
            #expect(try await korean.get("/sign-in").text.contains("판매자 로그인"))
        }
    }

    @Test func ourCookiesAreFoundAmongOtherSitesCookiesAndInEveryCookieLine() async throws {
        try await TestMarket.inProcess { market in
            var seller = StorefrontVisitor(market, language: "ko")
            _ = try await seller.signIn()
            let others = ["Cookie: _ga=GA1.2=3;market_lang=en", "Cookie: theme=dark;  market_lang=ko"]
            let page = try await seller.get("/?mine=1", headers: others)
            #expect(page.text.contains(#"<html lang="en""#), "the first cookie of a name is the one that counts")
            #expect(page.text.contains("<h1>Your products</h1>"), "the sign-in in the last line still counts")
        }
    }

    @Test func pricesAndCountsReadAsPeopleWriteThem() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Lamp", price: 1_234_000, discount: 34000)
            var korean = StorefrontVisitor(market, language: "ko")
            let page = try await korean.get("/").text
            #expect(page.contains("1,234,000원"))
            #expect(page.contains("1,200,000원"))
            #expect(page.contains("재고 5개"))
            var english = StorefrontVisitor(market)
            #expect(try await english.get("/").text.contains("₩1,200,000"))
        }
    }

    @Test func aSearchTypedIntoTheBoxFindsWordsWithSpacesAroundThem() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Old film camera")
            try await market.addProduct("Camera bag")
            var visitor = StorefrontVisitor(market)
            for query in ["film+camera", "film%20camera", "+film+camera+", "%20film%20camera%20"] {
                let page = try await visitor.get("/?q=\(query)").text
                #expect(page.contains("1 product matches “film camera”"), "\(query)")
                #expect(page.contains(#"value="film camera""#), "\(query): the box shows what was typed")
            }
            #expect(try await visitor.get("/?q=camera").text.contains("2 products match “camera”"))
            let none = try await visitor.get("/?q=typewriter").text
            #expect(none.contains("No product matches “typewriter”."))
            #expect(none.contains(#"<a class="button" href="/">Show all products</a>"#))
            #expect(!none.contains("Page 1 of 1"), "no pages to count without products")
            #expect(none.contains("<title>Results for “typewriter” · Open Market</title>"))
        }
    }

    /// A search longer than the box takes is cut to it and said so, and a long term is not echoed
    /// in full across the page.
    @Test func anOverLongSearchIsCutAndSaidSoInTheVisitorsLanguage() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("가방")
            var korean = StorefrontVisitor(market, language: "ko")
            let long = String(repeating: "가방", count: 500)
            let page = try await korean.get("/?q=" + long.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(page.status == 400)
            #expect(page.text.contains("검색어는 100자까지 넣을 수 있어서 앞의 100자로 찾았습니다."))
            #expect(page.text.contains(#"maxlength="100""#))
            #expect(page.text.contains("<title>“\(String(long.prefix(30)))…” 검색 결과"))
            #expect(!page.text.contains(String(long.prefix(101))), "never echoed beyond what the box takes")
            let short = try await korean.get("/?q=%EA%B0%80%EB%B0%A9")
            #expect(short.status == 200 && !short.text.contains("search-error"))
        }
    }

    /// Ten thousand Korean letters typed into the address bar make a request line of about 90 KB:
    /// the server reads it and the storefront says the search is too long, rather than a bare 400.
    @Test func tenThousandKoreanLettersInTheAddressBarGetTheStorefrontsOwnPage() async throws {
        try await TestMarket.withServer { market in
            let long = String(repeating: "가", count: 10_000).addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!
            #expect(long.utf8.count > 80 * 1024)
            let page = try await market.send(
                "GET", "/?q=" + long, headers: ["Accept-Language: ko", "Accept: text/html"])
            #expect(page.status == 400)
            #expect(page.text.contains("검색어는 100자까지 넣을 수 있어서 앞의 100자로 찾았습니다."))
            #expect(page.text.contains(#"href="/""#), "with the way back to the catalogue")
        }
    }

    /// Won and dollars are never compared; a list ordered by price says how it orders the two.
    @Test func aListByPriceSaysWonComeBeforeDollars() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("팥빙수", price: 9000)
            var korean = StorefrontVisitor(market, language: "ko")
            let said = "원화 상품을 먼저 가격순으로 보여 드리고, 달러 상품은 그 뒤에 따로 가격순으로 이어집니다."
            #expect(try await korean.get("/?sort=lowest-price").text.contains(said))
            #expect(try await korean.get("/?sort=highest-price").text.contains(said))
            #expect(!(try await korean.get("/?sort=newest").text.contains(said)))
            #expect(!(try await korean.get("/?sort=lowest-price&min=1000").text.contains(said)), "one currency only")
        }
    }

    @Test func aPriceRangeThatIsNoNumberIsA400ThatSaysSoAndNamesAreOfferedAsJSON() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("팥빙수", price: 9000)
            try await market.addProduct("팥빙수 세트", price: 15000)
            var korean = StorefrontVisitor(market, language: "ko")
            let refused = try await korean.get("/?min=%EC%8B%B8%EA%B2%8C&sort=lowest-price")
            #expect(refused.status == 400)
            #expect(refused.text.contains("가격은 12,000이나 5만원처럼 적어 주세요."))
            #expect(refused.text.contains(#"value="싸게""#), "what was typed stays in its field")
            let ranged = try await korean.get("/?min=10%2C000&max=20000%EC%9B%90").text
            #expect(ranged.contains("판매 중인 상품 1개") && ranged.contains("팥빙수 세트"))
            // 1만 to 1.6만원, as Koreans type prices.
            let inWords = try await korean.get("/?min=1%EB%A7%8C&max=1.6%EB%A7%8C%EC%9B%90")
            #expect(inWords.status == 200)
            #expect(inWords.text.contains("판매 중인 상품 1개") && inWords.text.contains("팥빙수 세트"))
            let offered = try await korean.get("/suggestions?q=%ED%8C%A5")
            #expect(offered.header("Content-Type") == "application/json; charset=utf-8")
            #expect(offered.text == #"["팥빙수 세트","팥빙수"]"#, "each a word's start: the newest first")
            #expect(try await korean.get("/suggestions?q=%20").text == "[]")
        }
    }

    @Test func aPageBeyondTheLastSaysSoAndLeadsBack() async throws {
        try await TestMarket.inProcess { market in
            for number in 1...3 { try await market.addProduct("Cup \(number)") }
            var visitor = StorefrontVisitor(market)
            let page = try await visitor.get("/?page=99").text
            #expect(page.contains("There is no page 99: the last page is 1."))
            #expect(page.contains("Page 1 of 1"))
            #expect(!page.contains("Page 99"))
            #expect(page.contains("Go to the first page"))
            #expect(page.contains(#"<a class="button primary" href="/?page=1">Go to the last page</a>"#))
            for number in 4...45 { try await market.addProduct("Cup \(number)") }
            let three = try await visitor.get("/?page=9&sort=lowest-price").text
            #expect(three.contains("There is no page 9: the last page is 3."))
            #expect(three.contains(#"href="/?sort=lowest-price&amp;page=3">Go to the last page</a>"#))
        }
    }

    @Test func aSharedLinkShowsWhatItLeadsTo() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct(
                "필름 카메라", description: "35mm 레인지파인더.\n필름 한 롤로 테스트했어요.", price: 240_000)
            var korean = StorefrontVisitor(market, language: "ko")
            let catalogue = try await korean.get("/?q=%EC%B9%B4%EB%A9%94%EB%9D%BC").text
            #expect(catalogue.contains("<title>“카메라” 검색 결과 · 오픈마켓</title>"))
            #expect(catalogue.contains(#"<meta property="og:title" content="“카메라” 검색 결과">"#))
            #expect(
                catalogue.contains(
                    #"<meta property="og:description" content="상품 1개가 사진과 함께 올라와 있어요. 둘러보고 직접 사고팔아 보세요.">"#))
            #expect(
                catalogue.contains(
                    #"<meta property="og:url" content="http://127.0.0.1:\#(market.port)/?q=%EC%B9%B4%EB%A9%94%EB%9D%BC">"#
                ))
            #expect(catalogue.contains(#"<meta property="og:image" content="http://127.0.0.1:\#(market.port)/images/"#))
            let page = try await korean.get("/products/\(product.id)").text
            #expect(
                page.contains(
                    #"<meta property="og:description" content="240,000원 · 재고 5개 · 35mm 레인지파인더. 필름 한 롤로 테스트했어요.">"#))
            let long = try await market.addProduct(
                "가방", description: String(repeating: "튼튼한 가죽 가방 ", count: 30), price: 30_000)
            let cut = Array(repeating: "튼튼한 가죽 가방", count: 16).joined(separator: " ") + "…"
            #expect(
                try await korean.get("/products/\(long.id)").text.contains(
                    #"<meta property="og:description" content="30,000원 · 재고 5개 · \#(cut)">"#),
                "a long description cut after a word, within 160 characters")
        }
    }

    @Test func amountsTypedWithSeparatorsAreTakenAndABlankStockIsRefused() async throws {
        try await TestMarket.inProcess { market in
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn()
            let form = try await visitor.get("/products/new").text
            #expect(form.contains(#"name="stock" value="1""#), "a new product starts with one in stock")
            #expect(form.contains("An amount taken off the price, not a percentage."))
            var fields = [
                "name": "Desk", "description": "Oak.", "price": "12,000원", "discount": "2,000", "stock": "",
                "currency": "KRW",
            ]
            let blank = try await visitor.postMultipart("/products/new", fields, images: [try TestImages.jpeg()])
            #expect(blank.status == 422)
            #expect(blank.text.contains("Stock is required"))
            #expect(blank.text.contains("A buyer pays ₩10,000."))
            #expect(try await market.productCount() == 0)
            fields["stock"] = "3"
            fields["discount"] = "20,000"
            let tooMuch = try await visitor.postMultipart("/products/new", fields, images: [try TestImages.jpeg()])
            #expect(tooMuch.text.contains("Discount must not be more than the price (12,000)"))
            fields["discount"] = "2,000"
            let created = try await visitor.postMultipart("/products/new", fields, images: [try TestImages.jpeg()])
            #expect(created.status == 303)
            let product = try await market.service.products(PageRequest(number: 1, itemsPerPage: 1)).items[0]
            #expect((product.price, product.discount, product.stock) == (12000, 2000, 3))
        }
    }

    @Test func theSameFormSentTwiceRegistersOneProduct() async throws {
        try await TestMarket.inProcess { market in
            var visitor = StorefrontVisitor(market)
            _ = try await visitor.signIn()
            let form = try await visitor.get("/products/new").text
            let sending = try #require(form.firstMatch(of: #/name="sending" value="([0-9a-f-]+)"/#)).1
            let fields = [
                "name": "Desk", "description": "Oak.", "price": "12000", "stock": "1", "currency": "KRW",
                "sending": String(sending),
            ]
            let first = try await visitor.postMultipart("/products/new", fields, images: [try TestImages.jpeg()])
            let again = try await visitor.postMultipart("/products/new", fields, images: [try TestImages.jpeg()])
            #expect(first.status == 303)
            #expect(again.status == 303)
            #expect(again.header("Location") == first.header("Location"))
            #expect(try await market.productCount() == 1)
            #expect(try await visitor.get(try #require(again.header("Location"))).text.contains("already sent"))
        }
    }

    @Test func onlyTheSignedInOwnerSeesEditAndDeleteAndNeedsNoSecret() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp", price: 3000)
            let path = "/products/\(product.id)"
            var stranger = StorefrontVisitor(market)
            #expect(!(try await stranger.get(path)).text.contains("\(path)/edit"))
            var judy = StorefrontVisitor(market)
            _ = try await judy.signIn(TestMarket.judy)
            #expect(!(try await judy.get(path)).text.contains("\(path)/edit"))
            let refused = try await judy.post("\(path)/delete", [:])
            #expect(refused.status == 403)
            #expect(try await market.productCount() == 1)

            var papri = StorefrontVisitor(market)
            _ = try await papri.signIn()
            let own = try await papri.get(path).text
            #expect(own.contains(#"href="\#(path)/edit""#))
            #expect(!own.contains(#"name="secret""#), "the owner deletes without the secret")
            let form = try await papri.get("\(path)/edit")
            #expect(form.text.contains(#"value="3,000""#), "the owner goes straight to the form")
            let saved = try await papri.post(
                "\(path)/edit",
                [
                    "name": "Lamp", "price": "2,500", "discount": "", "stock": "5", "currency": "KRW",
                    "description": "A test product.",
                ])
            #expect(saved.status == 303)
            #expect(try await market.service.product(id: product.id).price == 2500)
            let deleted = try await papri.post("\(path)/delete", [:])
            #expect(deleted.status == 303)
            #expect(try await market.productCount() == 0)
        }
    }

    @Test func aSignedInVendorSeesTheirOwnProducts() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("Cup of Papri")
            try await market.addProduct("Lamp of Judy", by: TestMarket.judy)
            var stranger = StorefrontVisitor(market)
            let refused = try await stranger.get("/?mine=1")
            #expect(refused.status == 303)
            #expect(refused.header("Location") == "/sign-in?next=/?mine=1")
            var judy = StorefrontVisitor(market)
            _ = try await judy.signIn(TestMarket.judy)
            let page = try await judy.get("/?mine=1").text
            #expect(page.contains("<h1>Your products</h1>"))
            #expect(page.contains("Lamp of Judy"))
            #expect(!page.contains("Cup of Papri"))
            #expect(page.contains("1 product for sale"))
            #expect(page.contains(#"<a class="link" href="/?mine=1">My products</a>"#))
        }
    }

    @Test func aProductListedWithoutADescriptionShowsNoEmptyBox() async throws {
        try await TestMarket.inProcess { market in
            // Stored before descriptions were required: the store takes it as it was.
            let vendor = try #require(try await market.store.allVendors().first)
            let product = try await market.store.insertProduct(
                NewProduct(
                    vendorID: vendor.id,
                    draft: ProductDraft(
                        name: "Old lamp", description: "", currency: .krw, price: 1000, discount: 0, stock: 1),
                    images: [], createdAt: Date()))
            var visitor = StorefrontVisitor(market)
            let page = try await visitor.get("/products/\(product.id)").text
            #expect(page.contains("<h1>Old lamp</h1>"))
            #expect(!page.contains(#"class="description""#))
        }
    }

    @Test func theInspectorAndTheConsoleSpeakKoreanToo() async throws {
        try await TestMarket.inProcess { market in
            var korean = StorefrontVisitor(market, language: "ko")
            _ = try await korean.signIn()
            let inspector = try await korean.get("/inspector").text
            #expect(inspector.contains("<h1>내 앱이 보낸 요청</h1>"))
            #expect(inspector.contains("장애 설정 저장"))
            let console = try await korean.get("/operator").text
            #expect(console.contains("<h1>운영자 콘솔</h1>"))
        }
    }

    @Test func aProductPageCarriesALinkPreviewAndACardReadsItsNameOnce() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Lamp", price: 3000)
            var visitor = StorefrontVisitor(market)
            let page = try await visitor.get("/products/\(product.id)").text
            #expect(page.contains(#"<meta property="og:title" content="Lamp">"#))
            #expect(page.contains(#"<meta property="og:description" content="₩3,000 · Stock: 5 · A test product.">"#))
            let image = try #require(product.images.first?.originalKey)
            #expect(
                page.contains(
                    #"<meta property="og:image" content="http://127.0.0.1:\#(market.port)/images/\#(image)">"#))
            let card = try await visitor.get("/").text
            #expect(card.contains(#"alt="" loading="lazy""#), "the thumbnail is the link's picture, not a second name")
        }
    }
}
