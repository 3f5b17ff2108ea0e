import Foundation
import Observation

/// The catalogue screen: pages loaded as the list scrolls, a search, a refresh that starts over, and
/// the list/grid choice, remembered. Usable from SwiftUI (it is `@Observable`) and testable anywhere.
@MainActor @Observable
public final class ProductListModel {
    public enum State: Equatable, Sendable {
        case idle
        case loading
        case loaded
        case empty
        case failed(String)
    }

    public enum Layout: String, Sendable, CaseIterable {
        case list
        case grid
    }

    public private(set) var products: [ProductListing] = []
    public private(set) var state: State = .idle
    /// True while a page is on its way; no second request starts meanwhile.
    public private(set) var isLoading = false
    public private(set) var searchText = ""
    public var layout: Layout {
        didSet { preferences.set(layout.rawValue, forKey: Self.layoutKey) }
    }

    private let client: OpenMarketClient
    private let pageSize: Int
    @ObservationIgnored private let preferences: UserDefaults
    private var loadedPages = 0
    private var hasMorePages = true
    /// Answers that arrive after a refresh or a new search started are dropped.
    private var generation = 0

    static let layoutKey = "OpenMarketKit.ProductListModel.layout"

    public init(client: OpenMarketClient, pageSize: Int = 20, preferences: UserDefaults = .standard) {
        self.client = client
        self.pageSize = pageSize
        self.preferences = preferences
        layout = preferences.string(forKey: Self.layoutKey).flatMap(Layout.init) ?? .list
    }

    /// The first page, unless one is loaded already.
    public func loadFirstPage() async {
        guard loadedPages == 0 else { return }
        await loadNextPage()
    }

    /// The next page, only when none is loading and more exist.
    public func loadNextPage() async {
        guard !isLoading, hasMorePages else { return }
        isLoading = true
        if products.isEmpty { state = .loading }
        let generation = generation
        defer { if generation == self.generation { isLoading = false } }
        do {
            let page = try await client.products(
                page: loadedPages + 1, itemsPerPage: pageSize, search: searchText.isEmpty ? nil : searchText)
            guard generation == self.generation else { return }
            products += page.products.filter { new in !products.contains { $0.id == new.id } }
            loadedPages += 1
            hasMorePages = page.hasNext
            state = products.isEmpty ? .empty : .loaded
        } catch is CancellationError {
            // The screen went away or a refresh replaced this load: nothing failed.
            guard generation == self.generation else { return }
            state = products.isEmpty ? .idle : .loaded
        } catch {
            guard generation == self.generation else { return }
            state = .failed((error as? OpenMarketError)?.description ?? error.localizedDescription)
        }
    }

    /// Asks for the next page when `product` is among the last few shown: before the bottom is reached.
    public func loadMoreIfNeeded(after product: ProductListing) async {
        guard let index = products.firstIndex(where: { $0.id == product.id }), index >= products.count - 5 else {
            return
        }
        await loadNextPage()
    }

    /// Starts over from the first page.
    public func refresh() async {
        generation += 1
        isLoading = false
        products = []
        loadedPages = 0
        hasMorePages = true
        await loadNextPage()
    }

    public func search(_ text: String) async {
        searchText = text.trimmingCharacters(in: .whitespacesAndNewlines)
        await refresh()
    }
}
