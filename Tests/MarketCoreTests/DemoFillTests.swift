import Foundation
import MarketCore
import MarketDemo
import MarketModel
import MarketTestSupport
import Testing

/// The demo's fill: stopped halfway (a Ctrl-C during the first `serve --demo`), the next fill makes the rest, the same
/// products a whole fill makes; a market holding other products is left alone.
@Suite struct DemoFillTests {
    static func listed(_ market: TestMarket) async throws -> [String] {
        try await market.service.products(PageRequest(number: 1, itemsPerPage: 20)).items.map {
            "\($0.name) \($0.price)"
        }
    }

    @Test func aFillStoppedHalfwayIsTakenUpAgainAsAWholeFillWouldHaveMadeIt() async throws {
        let halfway = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: halfway.directory) }
        var heard: [WorkProgress] = []
        #expect(try await DemoCatalogue.fill(halfway.service, productCount: 3) == 3)
        #expect(try await DemoCatalogue.fill(halfway.service, productCount: 6) { heard.append($0) } == 3)
        #expect(heard.last == WorkProgress(.demoProducts, done: 3, of: 3))
        #expect(try await DemoCatalogue.fill(halfway.service, productCount: 6) == 0, "whole: nothing more")

        let whole = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: whole.directory) }
        #expect(try await DemoCatalogue.fill(whole.service, productCount: 6) == 6)
        #expect(try await Self.listed(halfway) == Self.listed(whole))
    }

    @Test func aMarketWithOtherProductsIsLeftAlone() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        _ = try await market.service.registerVendor(name: "a seller", secret: "seller-secret")
        let vendors = try await market.service.vendors()
        let seller = try #require(vendors.first { $0.name == "a seller" })
        _ = try await market.service.createProduct(
            ProductDraft(name: "Own", description: "Mine.", currency: .krw, price: 1000, discount: 0, stock: 1),
            images: [try TestImages.jpeg()],
            by: OwnershipProof(identifier: seller.identifier, secret: "seller-secret"))
        #expect(try await DemoCatalogue.fill(market.service, productCount: 3) == 0)
    }
}
