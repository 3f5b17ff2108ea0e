import Foundation
import MarketCore
import MarketImaging
import MarketModel
import MarketTestSupport
import Testing

/// A store that fails when a product is inserted, as a full disk would: the one fault a real
/// SQLite file cannot be made to produce on demand.
struct FailingInsertStore: MarketStore {
    let base: any MarketStore
    struct DiskFull: Error {}

    func insertProduct(_ product: NewProduct) async throws -> Product { throw DiskFull() }
    func insertVendor(_ vendor: NewVendor) async throws -> Vendor { try await base.insertVendor(vendor) }
    func vendorCredentials(identifier: String) async throws -> StoredVendor? {
        try await base.vendorCredentials(identifier: identifier)
    }
    func allVendors() async throws -> [Vendor] { try await base.allVendors() }
    func product(id: Int64) async throws -> Product? { try await base.product(id: id) }
    func products(_ page: PageRequest, matching search: String?) async throws -> Page<ProductSummary> {
        try await base.products(page, matching: search)
    }
    func ownership(of productID: Int64) async throws -> ProductOwnership? { try await base.ownership(of: productID) }
    func updateProduct(
        id: Int64, replacingImages images: [NewProductImage]?, _ change: @Sendable (Product) throws -> Product
    ) async throws -> (before: Product, after: Product)? {
        try await base.updateProduct(id: id, replacingImages: images, change)
    }
    func deleteProduct(id: Int64, _ check: @Sendable (Product) throws -> Void) async throws -> Product? {
        try await base.deleteProduct(id: id, check)
    }
    func insertDeleteToken(hash: String, productID: Int64, issuedAt: Date) async throws {
        try await base.insertDeleteToken(hash: hash, productID: productID, issuedAt: issuedAt)
    }
    func productID(forDeleteToken hash: String) async throws -> Int64? {
        try await base.productID(forDeleteToken: hash)
    }
    func isImageBlobReferenced(_ key: String) async throws -> Bool { try await base.isImageBlobReferenced(key) }
}

@Suite struct AtomicCreateTests {
    @Test func aFailedInsertLeavesNoImageFileBehind() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let existing = try await market.addProduct("Shares a picture")
        let filesBefore = try market.imageFileCount()
        let service = MarketService(
            store: FailingInsertStore(base: market.store), images: market.images,
            imageProcessor: VipsImageProcessor(), hasher: SecretHasher(cost: 4))
        let vendor = TestMarket.papri
        await #expect(throws: FailingInsertStore.DiskFull.self) {
            try await service.createProduct(
                ProductDraft(name: "Never", description: "", currency: .krw, price: 1),
                images: [try TestImages.jpeg(dots: 1), try TestImages.jpeg(dots: 4)],
                by: VendorCredentials(identifier: vendor.identifier, secret: vendor.secret))
        }
        // The new picture's files are gone; the one shared with an existing product stays.
        #expect(try market.imageFileCount() == filesBefore)
        #expect(try await market.images.data(forKey: existing.images[0].originalKey) != nil)
    }
}
