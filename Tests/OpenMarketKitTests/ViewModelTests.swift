import Foundation
import MarketCore
import MarketTestSupport
import OpenMarketKit
import Testing

@MainActor @Suite struct ProductListModelTests {
    static func client(_ market: TestMarket) -> OpenMarketClient {
        OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:\(market.port)")!)
    }

    static func preferences() -> UserDefaults {
        let name = "openmarketkit-tests-\(UUID().uuidString)"
        return UserDefaults(suiteName: name)!
    }

    @Test func pagesArriveInOrderOnceEachUntilTheLast() async throws {
        try await TestMarket.withServer { market in
            for number in 1...45 { try await market.addProduct("Product \(number)") }
            let model = ProductListModel(client: Self.client(market), pageSize: 20, preferences: Self.preferences())
            #expect(model.state == .idle)
            await model.loadFirstPage()
            #expect(model.products.count == 20)
            #expect(model.products.first?.name == "Product 45")
            #expect(model.state == .loaded)
            await model.loadFirstPage()
            #expect(model.products.count == 20, "the first page is not loaded twice")
            async let first: Void = model.loadNextPage()
            async let second: Void = model.loadNextPage()
            _ = await (first, second)
            #expect(model.products.count == 40, "a page already loading is not asked for again")
            await model.loadMoreIfNeeded(after: model.products[10])
            #expect(model.products.count == 40, "far from the end, nothing more is asked")
            await model.loadMoreIfNeeded(after: model.products[37])
            #expect(model.products.count == 45)
            #expect(Set(model.products.map(\.id)).count == 45)
            await model.loadNextPage()
            #expect(model.products.count == 45)
            #expect(!model.isLoading)
        }
    }

    @Test func searchAndRefreshStartOver() async throws {
        try await TestMarket.withServer { market in
            for number in 1...5 { try await market.addProduct("Lamp \(number)") }
            try await market.addProduct("Chair")
            let model = ProductListModel(client: Self.client(market), pageSize: 2, preferences: Self.preferences())
            await model.loadFirstPage()
            await model.search("lamp")
            #expect(model.searchText == "lamp")
            #expect(model.products.map(\.name) == ["Lamp 5", "Lamp 4"])
            await model.search("no such thing")
            #expect(model.state == .empty && model.products.isEmpty)
            await model.search("")
            try await market.addProduct("Brand new")
            await model.refresh()
            #expect(model.products.first?.name == "Brand new")
            #expect(model.products.count == 2)
        }
    }

    @Test func aChosenOrderHoldsOverEveryPageAndANewSearch() async throws {
        try await TestMarket.withServer { market in
            for (name, price) in [
                ("Lamp", 3000), ("Desk lamp", 1000), ("Chair", 2000), ("Lamp shade", 5000), ("Mug", 4000),
            ] {
                try await market.addProduct(name, price: Int64(price))
            }
            let model = ProductListModel(client: Self.client(market), pageSize: 2, preferences: Self.preferences())
            await model.loadFirstPage()
            #expect(model.sort == .newest)
            await model.sort(by: .lowestPrice)
            await model.loadNextPage()
            await model.loadNextPage()
            #expect(model.products.map(\.name) == ["Desk lamp", "Chair", "Lamp", "Mug", "Lamp shade"])
            #expect(!model.hasMorePages)
            await model.sort(by: nil)
            await model.search("lamp")
            #expect(model.sort == .relevance, "best matches first while searching")
            #expect(model.products.map(\.name) == ["Lamp shade", "Desk lamp"])
            await model.sort(by: .highestPrice)
            #expect(model.products.map(\.name) == ["Lamp shade", "Lamp"], "the search holds")
        }
    }

    @Test func theLayoutChoiceIsRemembered() {
        let preferences = Self.preferences()
        let client = OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        let model = ProductListModel(client: client, preferences: preferences)
        #expect(model.layout == .list)
        model.layout = .grid
        #expect(ProductListModel(client: client, preferences: preferences).layout == .grid)
    }

    @Test func anUnreachableMarketIsAFailedStateThatSaysWhy() async {
        let model = ProductListModel(
            client: OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:9")!), preferences: Self.preferences())
        await model.loadFirstPage()
        guard case .failed(let reason) = model.state else {
            Issue.record("\(model.state)")
            return
        }
        #expect(reason.hasPrefix("The market does not answer"))
    }
}

@MainActor @Suite struct ProductDetailModelTests {
    @Test func showsThePicturesInOrderWithAPosition() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Carousel", imageCount: 3)
            let model = ProductDetailModel(
                productID: product.id, client: ProductListModelTests.client(market))
            await model.load()
            #expect(model.product?.listing.name == "Carousel")
            #expect(model.images.map(\.id) == product.images.map(\.id))
            #expect(model.imagePosition == "1 / 3")
            model.currentImageIndex = 1
            #expect(model.imagePosition == "2 / 3")
            model.currentImageIndex = 7
            #expect(model.currentImageIndex == 2)
            model.currentImageIndex = -1
            #expect(model.currentImageIndex == 0)
        }
    }

    @Test func aMissingProductIsAFailedState() async throws {
        try await TestMarket.withServer { market in
            let model = ProductDetailModel(productID: 404, client: ProductListModelTests.client(market))
            await model.load()
            #expect(model.state == .failed("The market said 404: no product has the id 404"))
        }
    }
}

/// What a list screen shows when the market fails halfway, hangs or is refreshed.
@MainActor @Suite struct ProductListFailureTests {
    @Test func aFurtherPageThatFailsKeepsTheRowsAndRetryCarriesOn() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-kit-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let port = try FreePort.pick()
        let arguments = ["serve", "--demo", "--port", String(port), "--data-dir", dataDir]
        var server = try OpenMarketBinary.start(arguments)
        _ = try await server.listeningPort()
        let client = OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        let model = ProductListModel(client: client, pageSize: 30, preferences: ProductListModelTests.preferences())
        await model.loadFirstPage()
        #expect(model.products.count == 30 && model.hasMorePages)

        _ = await server.kill()
        await model.loadNextPage()
        #expect(model.products.count == 30, "the rows stay")
        #expect(model.state == .loaded)
        #expect(model.pageError?.hasPrefix("The market does not answer") == true)

        server = try OpenMarketBinary.start(arguments)
        _ = try await server.listeningPort()
        await model.retry()
        #expect(model.products.count == 60 && model.pageError == nil)
        await model.loadNextPage()
        #expect(model.products.count == 64)
        #expect(!model.hasMorePages, "the end of the list is known")

        let refresh = Task { await model.refresh() }
        for _ in 0..<10_000 where !model.isLoading { await Task.yield() }
        #expect(model.isLoading)
        #expect(model.products.count == 64, "the rows stay until the new first page arrives")
        await refresh.value
        #expect(model.products.count == 30 && model.hasMorePages)
        #expect(try await server.terminate() == 0)
    }

    @Test func aHungMarketTimesOutAsItsOwnKindOfError() async throws {
        let hung = try SilentListener()
        let client = OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:\(hung.port)")!, timeout: .seconds(1))
        do {
            _ = try await client.products()
            Issue.record("a market that never answers answered")
        } catch let error as OpenMarketError {
            #expect(error.kind == .timedOut, "\(error)")
        }
    }
}

/// The seam an app's previews use: the models take any `OpenMarketAPI`, here one answering from
/// memory as a SwiftUI preview would.
@MainActor @Suite struct PreviewSeamTests {
    struct Showroom: OpenMarketAPI {
        let listing = ProductListing(
            id: 7, vendorID: 1, name: "Preview lamp", description: "From memory.",
            thumbnailURL: URL(string: "https://example.com/lamp.jpg")!, currency: .krw, price: 12_000, stock: 2,
            createdAt: Date(timeIntervalSince1970: 0))

        func products(
            page: Int, itemsPerPage: Int, search: String?, sort: ProductArrangement.Order?, after: Int64?
        ) async throws -> ProductPage {
            ProductPage(
                number: page, itemsPerPage: itemsPerPage, totalCount: 1, lastPage: 1, hasNext: false,
                products: [listing])
        }
        func product(id: Int64) async throws -> ProductDetails {
            ProductDetails(listing: listing, images: [], vendorName: "papri")
        }
        func createProduct(_ draft: ProductDraft, images: [Data]) async throws -> ProductDetails {
            try await product(id: 7)
        }
        func updateProduct(id: Int64, _ changes: ProductChanges) async throws -> ProductDetails {
            try await product(id: id)
        }
        func deleteProduct(id: Int64) async throws -> ProductDetails { try await product(id: id) }
    }

    @Test func theModelsRunOnAnAppsOwnAPIValue() async {
        let list = ProductListModel(client: Showroom(), preferences: ProductListModelTests.preferences())
        await list.loadFirstPage()
        #expect(list.products.map(\.name) == ["Preview lamp"] && !list.hasMorePages)
        let detail = ProductDetailModel(productID: 7, client: Showroom())
        await detail.load()
        #expect(detail.product?.vendorName == "papri")
    }
}

/// Scrolling through a market that changes meanwhile: every product there from the start shows
/// exactly once, however many are listed or deleted above the rows already shown.
@MainActor @Suite struct ChangingMarketTests {
    @Test func noProductIsSkippedOrRepeatedWhileOthersComeAndGo() async throws {
        try await TestMarket.withServer { market in
            var ids: [Int64] = []
            for number in 1...45 { ids.append(try await market.addProduct("Product \(number)").id) }
            let model = ProductListModel(
                client: ProductListModelTests.client(market), pageSize: 20,
                preferences: ProductListModelTests.preferences())
            await model.loadFirstPage()
            for id in ids.suffix(2) {
                _ = try await market.service.deleteProduct(
                    id: id, proof: OwnershipProof(secret: TestMarket.papri.secret))
            }
            for number in 1...3 { try await market.addProduct("Newer \(number)") }
            while model.hasMorePages {
                let before = model.products.count
                await model.loadNextPage()
                if model.products.count == before { break }
            }
            let shown = model.products.map(\.id)
            #expect(shown.count == Set(shown).count, "nothing repeated")
            #expect(Set(shown) == Set(ids), "nothing skipped: \(Set(ids).subtracting(shown).sorted())")
        }
    }
}
