import Foundation

/// What the view models ask of a market. `OpenMarketClient` is the real one; previews and tests may answer from memory.
public protocol OpenMarketAPI: Sendable {
    /// `sort` nil is newest first; `after` counts only then.
    func products(
        page: Int, itemsPerPage: Int, search: String?, sort: ProductArrangement.Order?, after: Int64?
    ) async throws -> ProductPage
    /// One product with its pictures and vendor.
    func product(id: Int64) async throws -> ProductDetails
    /// Registers a product with 1 to 5 pictures, as the client's vendor.
    func createProduct(_ draft: ProductDraft, images: [Data]) async throws -> ProductDetails
    /// Changes some facts of one of the vendor's products.
    func updateProduct(id: Int64, _ changes: ProductChanges) async throws -> ProductDetails
    /// Deletes one of the vendor's products; the answer is the product as it was.
    func deleteProduct(id: Int64) async throws -> ProductDetails
}

extension OpenMarketClient: OpenMarketAPI {}
