import Foundation
import MarketModel
import MarketTestSupport
import OpenMarketKit
import Testing

/// The client against the real server, started in-process on a free port.
@Suite struct OpenMarketClientTests {
    /// A client that waits as long as a loaded test machine may need (the whole suite hashes secrets
    /// on two cores at once); how a client gives up is tested on its own.
    static func client(_ market: TestMarket, as vendor: VendorCredentials? = nil) -> OpenMarketClient {
        OpenMarketClient(
            baseURL: URL(string: "http://127.0.0.1:\(market.port)")!, credentials: vendor, timeout: .seconds(120))
    }

    static let papri = VendorCredentials(identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret)

    @Test func drivesAProductThroughItsWholeLife() async throws {
        try await TestMarket.withServer { market in
            let client = Self.client(market, as: Self.papri)
            #expect(try await client.isHealthy())
            let created = try await client.createProduct(
                ProductDraft(
                    name: "Kit lamp", description: "Warm light.\nDimmable.", currency: .usd, price: 120, discount: 20,
                    stock: 4),
                images: [try TestImages.jpeg(dots: 1), try TestImages.png()])
            #expect(created.listing.name == "Kit lamp")
            #expect(created.listing.bargainPrice == 100)
            #expect(created.images.count == 2)
            #expect(created.vendorName == "papri")

            let page = try await client.products(page: 1, itemsPerPage: 10, search: "KIT")
            #expect(page.totalCount == 1)
            #expect(page.products.map(\.id) == [created.id])

            let shown = try await client.product(id: created.id)
            #expect(shown == created)
            let thumbnailPath = String(
                shown.listing.thumbnailURL.absoluteString.dropFirst("http://127.0.0.1:\(market.port)".count))
            #expect(try await market.send("GET", thumbnailPath).status == 200)

            let updated = try await client.updateProduct(
                id: created.id, ProductChanges(price: 150, stock: 0, coverImageID: Int64(created.images[1].id)))
            #expect((updated.listing.price, updated.listing.discount, updated.listing.isSoldOut) == (150, 20, true))
            #expect(updated.listing.thumbnailURL == created.images[1].thumbnailURL)

            let deleted = try await client.deleteProduct(id: created.id)
            #expect(deleted.id == created.id)
            await #expect(
                throws: OpenMarketError.http(status: 404, message: "no product has the id \(created.id)", field: nil)
            ) {
                try await client.product(id: created.id)
            }
        }
    }

    @Test func errorsKeepTheServersWords() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Guarded")
            let wrong = Self.client(
                market, as: VendorCredentials(identifier: TestMarket.papri.identifier, secret: "nope"))
            await #expect(
                throws: OpenMarketError.http(
                    status: 401, message: "the identifier and secret do not match a vendor", field: .secret)
            ) { try await wrong.updateProduct(id: product.id, ProductChanges(name: "Taken")) }
            let seller = Self.client(market, as: Self.papri)
            do {
                _ = try await seller.updateProduct(id: product.id, ProductChanges(discount: .amount(5000)))
                Issue.record("a discount above the price was accepted")
            } catch let OpenMarketError.http(status, message, field) {
                #expect(status == 400 && field == .discount)
                #expect(message.contains("must not be more than the price"))
            }
            await #expect(throws: OpenMarketError.missingCredentials) {
                try await Self.client(market).deleteProduct(id: product.id)
            }
        }
    }

    @Test func readsTheOpenmarketFlavourToo() async throws {
        try await TestMarket.withServer(flavor: .openmarket) { market in
            let product = try await market.addProduct("Camel", imageCount: 2)
            let client = Self.client(market)
            let page = try await client.products()
            #expect(page.products.first?.name == "Camel")
            #expect(try await client.product(id: product.id).images.count == 2)
        }
    }

    @Test func valuesAreHashableRoundTripThroughJSONAndCanBeMadeByHand() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Cached", imageCount: 2)
            let client = OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:\(market.port)")!)
            let details = try await client.product(id: product.id)
            let page = try await client.products()
            #expect(try JSONDecoder().decode(ProductDetails.self, from: JSONEncoder().encode(details)) == details)
            #expect(try JSONDecoder().decode(ProductPage.self, from: JSONEncoder().encode(page)) == page)
            #expect(Set([details, details]).count == 1)
            let fixture = ProductListing(
                id: 1, vendorID: 2, name: "Preview lamp", description: "For a SwiftUI preview.",
                thumbnailURL: URL(string: "https://example.com/lamp.jpg")!, currency: .krw, price: 12_000,
                discount: 2_000, stock: 3, createdAt: Date(timeIntervalSince1970: 0))
            #expect(fixture.bargainPrice == 10_000 && fixture.isDiscounted && !fixture.isSoldOut)
            let photo = ProductPhoto(
                id: 9, url: URL(string: "https://example.com/1.jpg")!,
                thumbnailURL: URL(string: "https://example.com/t.jpg")!)
            let preview = ProductDetails(listing: fixture, images: [photo], vendorName: "papri")
            #expect(try JSONDecoder().decode(ProductDetails.self, from: JSONEncoder().encode(preview)) == preview)
        }
    }

    @Test func anUnreachableServerIsToldApartAndReadable() async throws {
        let client = OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        do {
            _ = try await client.products()
            Issue.record("a closed port answered")
        } catch let error as OpenMarketError {
            #expect(error.kind == .unreachable, "\(error)")
            #expect(error.localizedDescription.hasPrefix("The market does not answer"))
        }
    }

    @Test func errorsHaveKindsAnAppCanSwitchOnAndSentencesToShow() {
        #expect(OpenMarketError(URLError(.notConnectedToInternet)) == .offline)
        #expect(OpenMarketError(URLError(.timedOut)).kind == .timedOut)
        #expect(OpenMarketError(URLError(.cannotConnectToHost)).kind == .unreachable)
        #expect(OpenMarketError.http(status: 401, message: "wrong", field: .secret).kind == .unauthorized)
        #expect(OpenMarketError.http(status: 403, message: "not yours", field: nil).kind == .forbidden)
        #expect(OpenMarketError.http(status: 400, message: "price …", field: .price).kind == .invalid(field: .price))
        #expect(OpenMarketError.http(status: 429, message: "wait", field: .secret).kind == .throttled)
        #expect(OpenMarketError.http(status: 503, message: "closed", field: nil).kind == .server)
        let error: any Error = OpenMarketError.offline
        #expect(error.localizedDescription == "This device is offline. Check the connection and try again.")
        #expect(!error.localizedDescription.contains("OpenMarketKit.OpenMarketError"))
    }

    @Test func garbageFromTheServerIsADecodingError() async throws {
        let client = OpenMarketClient(baseURL: URL(string: "http://garbage.invalid")!, session: GarbageAnswer.session())
        do {
            _ = try await client.product(id: 1)
            Issue.record("garbage was read as a product")
        } catch let error as OpenMarketError {
            guard case .decoding = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func aCancelledTaskSendsNothing() async throws {
        try await TestMarket.withServer { market in
            let client = Self.client(market, as: Self.papri)
            let attempt = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.createProduct(
                    ProductDraft(name: "Never sent", description: "Test.", currency: .krw, price: 1),
                    images: [try TestImages.jpeg()])
            }
            await #expect(throws: CancellationError.self) { try await attempt.value }
            let count = try await market.productCount()
            #expect(count == 0)
        }
    }
}
