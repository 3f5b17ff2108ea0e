import Foundation
import MarketCore
import MarketDemo
import MarketModel
import MarketTestSupport
import OpenMarketKit
import Testing

/// Each hard case through a team address, in both dialects: what a strict app of each dialect decodes, what
/// OpenMarketKit decodes, the pictures it fetches, while the rest of the class reads the market as it is.
@Suite struct HardCaseTests {
    static let perPage = 10

    @Test(arguments: HardCase.allCases)
    func eachHardCaseAnswersAStrictAppOfEitherDialectThroughItsTeamAddressAlone(_ hardCase: HardCase) async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("진짜 상품", by: TestMarket.nala)
            let team = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            let set = try await InspectorTests.setFaults(#"{"hard_cases":["\#(hardCase.rawValue)"],"seed":7}"#, market)
            #expect(set.status == 200, "\(set.text)")
            #expect((try set.json["faults"] as? [String: Any])?["hard_cases"] as? [String] == [hardCase.rawValue])

            let v2 = try await Self.v2Pages(market, team)
            let v1 = try await Self.v1Pages(market, team)
            let names = v2.flatMap(\.pages).map(\.name)
            #expect(!names.contains("진짜 상품"), "the team reads its hard case, not the market")
            if ![.halfLastPage, .thousandPages, .shifting].contains(hardCase) {
                #expect(Set(v1.flatMap(\.items).map(\.id)) == Set(v2.flatMap(\.pages).map(\.id)), "the same catalogue")
            }
            try await Self.expectDetailsAndPictures(of: v2, v1: v1, through: team, market, hardCase: hardCase)
            try Self.expectShape(of: hardCase, v2: v2, v1: v1)

            let plain = try await market.send("GET", "/api/products?page_no=1&items_per_page=10")
            #expect(try StrictV2.page(plain.body).pages.map(\.name) == ["진짜 상품"])
            let otherTeam = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            let other = try await market.send("GET", "\(otherTeam)/items/1")
            #expect(try StrictV1.page(other.body).items.map(\.title) == ["진짜 상품"], "another team reads the market")
        }
    }

    /// A team meets its cases through its own port (here as a proxy forwards it) and by naming itself in
    /// `identifier` at the plain address, as through its team address; the plain address alone keeps the market.
    @Test func aTeamMeetsItsHardCasesThroughItsPortAndByItsIdentifierToo() async throws {
        try await TestMarket.inProcess(configure: { $0.teamPorts = TeamPorts("8101-8140") }) { market in
            try await market.addProduct("진짜 상품", by: TestMarket.nala)
            let found = try #require(try await market.service.vendor(.identifier(TestMarket.papri.identifier)))
            let port = 8100 + (try await market.service.teamAddressUsed(by: found).teamSeat ?? 0)
            #expect(try await InspectorTests.setFaults(#"{"hard_cases":["empty"]}"#, market).status == 200)
            let list = "/api/products?page_no=1&items_per_page=10"
            let throughPort = try await market.send("GET", list, headers: ["X-Forwarded-Host: class.local:\(port)"])
            #expect(try StrictV2.page(throughPort.body).totalCount == 0)
            let named = try await market.send("GET", list, headers: ["identifier: \(TestMarket.papri.identifier)"])
            #expect(try StrictV2.page(named.body).totalCount == 0)
            #expect(try StrictV2.page(try await market.send("GET", list).body).totalCount == 1)
        }
    }

    @Test func aTeamsOwnRegisterIsStoredAndShownAmongItsHardCasesInEachDialectsPlace() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("rehearsal 전에 올린 상품", by: TestMarket.papri)
            let team = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            let set = try await InspectorTests.setFaults(#"{"hard_cases":["half_last_page","sold_out"]}"#, market)
            let since = try #require((try set.json["faults"] as? [String: Any])?["hard_cases_since"] as? Double)
            let changed = try await InspectorTests.setFaults(
                #"{"hard_cases":["half_last_page","sold_out"],"latency_ms":1}"#, market)
            #expect(
                (try changed.json["faults"] as? [String: Any])?["hard_cases_since"] as? Double == since,
                "changing the other settings keeps when the cases began")
            let (body, type) = try InspectorTests.quirkyCreate(price: "1500", as: TestMarket.papri)
            let created = try await market.send(
                "POST", "\(team)/api/products",
                headers: ["Content-Type: \(type)"] + InspectorTests.credentials(TestMarket.papri),
                body: body)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(try created.json["id"] as? Int)

            let first = try StrictV2.page(
                try await market.send("GET", "\(team)/api/products?page_no=1&items_per_page=10").body)
            #expect(first.pages.first?.id == id, "the 2022 dialect lists the newest first")
            #expect(first.totalCount == 25)
            #expect(!first.pages.contains { $0.name == "rehearsal 전에 올린 상품" }, "what it had before is the market's")
            let last = try StrictV1.page(try await market.send("GET", "\(team)/items/3").body)
            #expect(last.items.last?.id == id, "the 2021 dialect lists the newest last")
            #expect(try await market.send("GET", "\(team)/api/products/\(id)").status == 200)
            #expect(try await market.service.product(id: Int64(id)).price == 1500, "stored for real")
        }
    }

    @Test func theInspectorAndTheBoardSayWhichHardCasesShapedEachAnswerAndWhatTheAppDid() async throws {
        try await TestMarket.inProcess { market in
            let team = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            #expect(
                try await InspectorTests.setFaults(#"{"hard_cases":["shifting","missing_picture"]}"#, market).status
                    == 200)
            let first = try StrictV2.page(
                try await market.send("GET", "\(team)/api/products?page_no=1&items_per_page=10").body)
            let missing = try #require(first.pages.first { $0.name == "사진이 사라진 상품" })
            let picture = missing.thumbnail.path
            for _ in 0..<3 { #expect(try await market.send("GET", picture).status == 404) }
            for _ in 0..<2 { _ = try await market.send("GET", "\(team)/api/products?page_no=2&items_per_page=10") }

            let requests = try await InspectorTests.requests(market, of: TestMarket.papri, atLeast: 6)
            let shaped = requests.compactMap { ($0["request"] as? [String: Any])?["hard_cases"] as? [String] }
            #expect(shaped.last == ["shifting", "missing_picture"], "the first page met both")
            #expect(shaped.first == ["shifting"], "a second page met the shifting list")
            var learner = StorefrontVisitor(market, language: "en")
            _ = try await learner.signIn(TestMarket.papri)
            let inspector = try await InspectorPageTests.inspector(&learner, showing: "Hard cases that shaped")
            #expect(
                inspector.text.contains(
                    "Hard cases that shaped this answer:</strong> Products arriving while you scroll · 2 of its items"))

            var teacher = try await OperatorConsoleTests.signedInTeacher(market)
            let teams = try #require(try await teacher.get("/operator/board.json").json["teams"] as? [[String: Any]])
            let papri = try #require(teams.first { $0["name"] as? String == "papri" })
            #expect(papri["hard_cases_met"] as? [String] == ["shifting", "missing_picture"])
            #expect(papri["pages_asked_again"] as? Int == 1)
            #expect(papri["missing_picture_asked_again"] as? Int == 2)
            #expect(papri["repeated_items"] as? Int == 4)
            let board = try await teacher.get("/operator/board").text
            #expect(
                board.contains(
                    "Cases met: Products arriving while you scroll, A missing picture. Next pages asked for again: 1."
                        + " The missing picture asked for again: 2."
                        + " Items given a second time by the shifting list: 4."), "\(board)")
            let projector = try await teacher.get("/operator/board?view=projector").text
            #expect(projector.contains("<strong>1 of 1 teams:</strong> met hard cases"), "\(projector)")
            let csv = try await teacher.get("/operator/board.csv").text
            #expect(csv.contains(",Hard cases\r\n") && csv.contains("Next pages asked for again: 1."))
        }
    }

    /// The teacher's switch: every team's app meets the case through its team address; a vendor that is no team,
    /// the plain address and the storefront keep the market.
    @Test func theTeacherGivesEveryTeamAHardCaseFromTheConsole() async throws {
        try await TestMarket.inProcess { market in
            try await market.addProduct("진짜 상품", by: TestMarket.papri)
            var teacher = try await OperatorConsoleTests.signedInTeacher(market, language: "ko")
            #expect(
                try await teacher.post("/operator/rehearsal", ["case_empty": "1", "case_vanishing": "1"]).status == 303)
            let console = try await teacher.get("/operator").text
            #expect(console.contains("까다로운 경우: 빈 카탈로그, 사라지는 상품"), "\(console)")
            let nala = try await TeamAddressTests.teamPath(market, TestMarket.nala)
            let rehearsed = try StrictV2.page(
                try await market.send("GET", "\(nala)/api/products?page_no=1&items_per_page=10").body)
            #expect(rehearsed.totalCount == 0, "empty hides every product but the team's own")
            let plain = try await market.send(
                "GET", "/api/products?page_no=1&items_per_page=10",
                headers: ["identifier: \(TestMarket.papri.identifier)"])
            #expect(try StrictV2.page(plain.body).pages.map(\.name) == ["진짜 상품"], "papri is no team")
            let record = try #require(
                try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 1).first?["request"]
                    as? [String: Any])
            #expect(record["for_every_team"] as? Bool == true && record["hard_cases"] as? [String] == ["empty"])
            var shopper = StorefrontVisitor(market, language: "ko")
            #expect(try await shopper.get("/").text.contains("진짜 상품"))
            #expect(try await teacher.post("/operator/rehearsal", ["clear": "1"]).status == 303)
            let back = try await market.send("GET", "\(nala)/api/products?page_no=1&items_per_page=10")
            #expect(try StrictV2.page(back.body).totalCount == 1)
        }
    }

    /// The same seed gives the same catalogue, byte for byte; another seed another.
    @Test func aSeedMakesTheHardCasesRepeat() async throws {
        try await TestMarket.inProcess { market in
            let team = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            func page(seed: Int) async throws -> Data {
                #expect(
                    try await InspectorTests.setFaults(#"{"hard_cases":["shifting"],"seed":\#(seed)}"#, market).status
                        == 200)
                return try await market.send("GET", "\(team)/api/products?page_no=3&items_per_page=10").body
            }
            let first = try await page(seed: 7)
            #expect(try await page(seed: 8) != first)
            #expect(try await page(seed: 7) == first)
        }
    }

    /// An id far from any product, even the lowest a path can hold, is no product, whatever the team rehearses.
    @Test func anIDFarFromAnyProductIsNoProductUnderEveryHardCase() async throws {
        try await TestMarket.inProcess { market in
            let all = HardCase.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
            #expect(try await InspectorTests.setFaults(#"{"hard_cases":[\#(all)]}"#, market).status == 200)
            let team = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            for id in [Int64.min, -1, 1_999_999_999, 2_000_009_999, Int64.max] {
                #expect(try await market.send("GET", "\(team)/api/products/\(id)").status == 404, "\(id)")
                #expect(try await market.send("GET", "\(team)/item/\(id)").status == 404, "\(id)")
            }
            let page = try await market.send("GET", "\(team)/api/products?page_no=1000000000&items_per_page=500")
            #expect(page.status == 200)
            #expect(try StrictV2.page(page.body).pages.isEmpty)
        }
    }

    @Test func anUnknownHardCaseIsRefusedWithEveryNameAndAClearGivesTheMarketBack() async throws {
        try await TestMarket.inProcess { market in
            let refused = try await InspectorTests.setFaults(#"{"hard_cases":["empty","endless"]}"#, market)
            #expect(refused.status == 400)
            #expect(
                try refused.json["reason"] as? String
                    == "hard_cases must be one of \(HardCase.allCases.map(\.rawValue).joined(separator: ", ")), not \"endless\""
            )
            #expect(try await InspectorTests.setFaults(#"{"hard_cases":["empty"]}"#, market).status == 200)
            let shown = try await market.send(
                "GET", "/inspector/faults", headers: InspectorTests.credentials(TestMarket.papri))
            #expect((try shown.json["faults"] as? [String: Any])?["hard_cases"] as? [String] == ["empty"])
            try await market.addProduct("진짜 상품", by: TestMarket.nala)
            let team = try await TeamAddressTests.teamPath(market, TestMarket.papri)
            #expect(try StrictV1.page(try await market.send("GET", "\(team)/items/1").body).items.isEmpty)
            let cleared = try await market.send(
                "DELETE", "/inspector/faults", headers: InspectorTests.credentials(TestMarket.papri))
            #expect(cleared.status == 200)
            #expect(try StrictV1.page(try await market.send("GET", "\(team)/items/1").body).items.count == 1)
        }
    }

    // MARK: Reading as the apps do

    /// Every page of the 2022 list, up to the fifth and the last.
    static func v2Pages(_ market: TestMarket, _ team: String) async throws -> [StrictV2.Page] {
        var pages: [StrictV2.Page] = []
        let client = OpenMarketClient(baseURL: URL(string: "http://localhost")!)
        for number in [1, 2, 3, 4, 5, 1000, 1001] {
            let answer = try await market.send(
                "GET", "\(team)/api/products?page_no=\(number)&items_per_page=\(perPage)")
            #expect(answer.status == 200, "\(answer.text)")
            let page = try StrictV2.page(answer.body)
            let kit: ProductPage = try client.decode(answer.body)
            #expect(kit.products.map(\.id) == page.pages.map { Int64($0.id) }, "OpenMarketKit reads it too")
            if number == 1 || number <= page.lastPage + 1 { pages.append(page) }
        }
        return pages
    }

    /// The 2021 list from page 1 until a page comes back empty, as Ryan Market reads it, up to the third.
    static func v1Pages(_ market: TestMarket, _ team: String) async throws -> [StrictV1.Page] {
        var pages: [StrictV1.Page] = []
        for number in 1...3 {
            let answer = try await market.send("GET", "\(team)/items/\(number)")
            #expect(answer.status == 200, "\(answer.text)")
            let page = try StrictV1.page(answer.body)
            pages.append(page)
            if page.items.isEmpty { break }
        }
        return pages
    }

    static func expectDetailsAndPictures(
        of v2: [StrictV2.Page], v1: [StrictV1.Page], through team: String, _ market: TestMarket, hardCase: HardCase
    ) async throws {
        let client = OpenMarketClient(baseURL: URL(string: "http://localhost")!)
        let firstPage = try #require(v2.first).pages
        for item in firstPage {
            let detail = try await market.send("GET", "\(team)/api/products/\(item.id)")
            let v1Detail = try await market.send("GET", "\(team)/item/\(item.id)")
            guard item.name != "곧 사라질 상품" else {
                #expect(detail.status == 404 && v1Detail.status == 404, "listed, then gone")
                continue
            }
            #expect(detail.status == 200, "\(detail.text)")
            let product = try StrictV2.detail(detail.body)
            let _: ProductDetails = try client.decode(detail.body)
            let v1Item = try StrictV1.item(v1Detail.body)
            #expect(product.name == item.name && v1Item.title == item.name)
            #expect((try? MarketRules.validName(item.name)) == item.name, "a name the market itself could hold")
            #expect((try? MarketRules.validDescription(product.description)) != nil)
            #expect((try? MarketRules.validDiscount(Int64(item.discountedPrice), price: Int64(item.price))) != nil)
            #expect(product.images.count == v1Item.images?.count)
            if item.name == "사진 없는 상품" { #expect(product.images.isEmpty) }
            if item.name == "사진 다섯 장 상품" { #expect(Set(product.images.map(\.url)).count == 5) }
            for url in [item.thumbnail] + product.images.map(\.url) {
                let picture = try await market.send("GET", url.path)
                #expect(url.path.hasPrefix(team + "/images/"))
                if item.name == "사진이 사라진 상품" {
                    #expect(picture.status == 404)
                    continue
                }
                #expect(picture.status == 200, "\(url)")
                let size = try #require(market.service.pictureSize(of: picture.body), "\(url) is a picture")
                if hardCase == .hugePicture, item.name == "사진이 아주 큰 상품" { #expect(size.width == 6000) }
                if item.name == "사진이 느린 상품" {
                    #expect(picture.header("Cache-Control") == "no-store", "slow every time, never kept by the app")
                }
                if item.name == "PNG 사진 상품" { #expect(picture.header("Content-Type") == "image/png") }
                if item.name == "HEIC 사진 상품" { #expect(picture.header("Content-Type") == "image/heic") }
            }
        }
    }

    static func expectShape(of hardCase: HardCase, v2: [StrictV2.Page], v1: [StrictV1.Page]) throws {
        let first = try #require(v2.first)
        let items = first.pages
        switch hardCase {
        case .empty:
            #expect(first.totalCount == 0 && items.isEmpty && first.lastPage == 0 && !first.hasNext)
            #expect(v1.first?.items.isEmpty == true)
        case .halfLastPage:
            #expect(first.totalCount == 25 && first.lastPage == 3)
            #expect(v2.map(\.pages.count).prefix(4) == [10, 10, 5, 0])
        case .thousandPages:
            #expect(first.lastPage == 1000 && v2.last?.pageNo == 1001 && v2.last?.pages.isEmpty == true)
            #expect(v2.first { $0.pageNo == 1000 }?.pages.count == perPage)
        case .shifting:
            let second = v2[1]
            #expect(Array(items.suffix(2)).map(\.id) == Array(second.pages.prefix(2)).map(\.id), "page 2 begins again")
            #expect(second.totalCount == first.totalCount + 2, "two products arrived meanwhile")
        case .longText:
            let long = try #require(items.first)
            #expect(long.name.count == 100 && long.name.contains("🎁"))
            #expect(long.description.count == 1000 && long.description.contains("\n"))
            #expect(items[1].name.count == 100 && !items[1].name.contains(" "))
            #expect(items[1].description.count == 1000 && !items[1].description.contains(" "))
        case .edgePrices:
            #expect(Set(items.map(\.price)).isSuperset(of: [0, 1, 1_000_000_000]))
            #expect(items.contains { $0.discountedPrice == $0.price && $0.price > 0 && $0.bargainPrice == 0 })
            #expect(items.contains { $0.currency == .usd })
            #expect(items.contains { $0.bargainPrice != $0.price - $0.discountedPrice })
            #expect(v1.first?.items.contains { $0.price == 12_000 && $0.discountedPrice == 0 } == true)
        case .soldOut:
            #expect(items.prefix(2).allSatisfy { $0.stock == 0 })
        case .missingPicture, .slowPicture, .hugePicture, .pngPicture, .heicPicture, .vanishing:
            #expect(items.count == perPage && first.totalCount == 21)
        case .noPictures:
            #expect(v1.first?.items.first?.thumbnails.count == 1, "a 2021 item always has a thumbnail to show")
        case .fivePictures:
            #expect(first.totalCount == 21)
        }
    }
}

/// The apps' models at their strictest (API reference): every key required, integral prices (Tiana decodes `Int`),
/// a currency enum, dates in the flavour's format, URLs that parse.
enum StrictV2 {
    enum Currency: String, Decodable { case krw = "KRW", usd = "USD" }

    struct Page: Decodable {
        var pageNo: Int
        var itemsPerPage: Int
        var totalCount: Int
        var offset: Int
        var limit: Int
        var lastPage: Int
        var hasNext: Bool
        var hasPrev: Bool
        var pages: [Product]
    }

    struct Product: Decodable {
        var id: Int
        var vendorId: Int
        var name: String
        var description: String
        var thumbnail: URL
        var currency: Currency
        var price: Int
        var bargainPrice: Int
        var discountedPrice: Int
        var stock: Int
        var createdAt: Date
        var issuedAt: Date
    }

    struct Detail: Decodable {
        struct Image: Decodable {
            var id: Int
            var url: URL
            var thumbnailUrl: URL
            var succeed: Bool
            var issuedAt: Date
        }

        struct Vendor: Decodable {
            var id: Int
            var name: String
        }

        var id: Int
        var name: String
        var description: String
        var price: Int
        var bargainPrice: Int
        var images: [Image]
        var vendors: Vendor
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SS"
        decoder.dateDecodingStrategy = .formatted(format)
        return decoder
    }

    static func page(_ body: Data) throws -> Page { try decoder().decode(Page.self, from: body) }
    static func detail(_ body: Data) throws -> Detail { try decoder().decode(Detail.self, from: body) }
}

/// Ryan Market's 2021 model: `thumbnails` required, `registration_date` a TimeInterval, prices whole.
enum StrictV1 {
    struct Page: Decodable {
        var page: Int
        var items: [Item]
    }

    struct Item: Decodable {
        var id: Int
        var title: String
        var price: Int
        var currency: StrictV2.Currency
        var stock: Int
        var discountedPrice: Int?
        var thumbnails: [URL]
        var registrationDate: TimeInterval
        var descriptions: String?
        var images: [URL]?
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    static func page(_ body: Data) throws -> Page { try decoder().decode(Page.self, from: body) }
    static func item(_ body: Data) throws -> Item { try decoder().decode(Item.self, from: body) }
}
