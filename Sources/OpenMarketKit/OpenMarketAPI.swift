import Foundation

/// What the view models ask of a market. `OpenMarketClient` is the real one; an app's previews
/// and tests can hand the models a value of their own that answers from memory.
public protocol OpenMarketAPI: Sendable {
    /// `sort` nil is newest first; `after` counts only then.
    func products(
        page: Int, itemsPerPage: Int, search: String?, sort: ProductArrangement.Order?, after: Int64?
    ) async throws -> ProductPage
    func product(id: Int64) async throws -> ProductDetails
    func createProduct(_ draft: ProductDraft, images: [Data]) async throws -> ProductDetails
    func updateProduct(id: Int64, _ changes: ProductChanges) async throws -> ProductDetails
    func deleteProduct(id: Int64) async throws -> ProductDetails
}

extension OpenMarketClient: OpenMarketAPI {}
