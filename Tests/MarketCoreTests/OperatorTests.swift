import Foundation
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

/// The operators' powers as the service's rules, without HTTP.
@Suite struct OperatorTests {
    @Test func anOperatorRemovesAnyProductRekeysVendorsAndEveryActIsRecorded() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let service = market.service
        let secret = try await service.registerOperator(name: "teacher")
        #expect(secret.count == 16)
        await #expect(throws: MarketError.wrongCredentials) {
            try await service.authenticateOperator(name: "teacher", secret: "not-the-secret", from: nil)
        }
        await #expect(throws: MarketError.wrongCredentials) {
            try await service.authenticateOperator(name: "nobody", secret: secret, from: nil)
        }
        let teacher = try await service.authenticateOperator(name: " teacher ", secret: secret, from: nil)
        let product = try await market.addProduct("Judy's lamp", by: TestMarket.judy)
        let removed = try await service.removeProduct(id: product.id, by: teacher)
        #expect(removed.name == "Judy's lamp")
        await #expect(throws: MarketError.productNotFound(product.id)) { try await service.product(id: product.id) }
        let newSecret = try await service.replaceSecret(ofVendor: TestMarket.judy.identifier, by: teacher)
        _ = try await service.authenticate(
            VendorCredentials(identifier: TestMarket.judy.identifier, secret: newSecret), from: nil)
        let team = try await service.registerVendor(name: "team 82", vendorID: 82, by: teacher)
        #expect(team.vendor.id == 82)
        let overview = try await service.vendorOverview(for: teacher)
        #expect(overview.map(\.vendor.name).contains("team 82"))
        #expect(overview.first { $0.vendor.name == "judy" }?.productCount == 0)
        let log = try await service.operatorLog(for: teacher).map(\.act.english)
        #expect(
            log == [
                "registered vendor team 82 (vendor_id 82)",
                "gave vendor \(TestMarket.judy.identifier) a new secret",
                "removed product \(product.id) “Judy's lamp” of judy",
            ])
        await #expect(throws: MarketError.self) { try await service.registerOperator(name: "teacher") }
    }

    @Test func emptyingTheMarketKeepsVendorsAndTheirSecrets() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let service = market.service
        let teacher = try await service.authenticateOperator(
            name: "teacher", secret: try await service.registerOperator(name: "teacher", secret: "chalkboard"),
            from: nil)
        _ = try await market.addProduct("One", by: TestMarket.papri)
        _ = try await market.addProduct("Two", by: TestMarket.judy)
        #expect(try await service.emptyMarket(by: teacher) == 2)
        #expect(try await service.products(PageRequest(number: 1, itemsPerPage: 10)).totalCount == 0)
        _ = try await service.authenticate(
            VendorCredentials(identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret), from: nil)
        #expect(try await service.operatorLog(for: teacher).first?.act == .emptiedMarket(products: 2))
        #expect(try await market.addProduct("First again").id == 1, "a new market's numbers")
    }
}
