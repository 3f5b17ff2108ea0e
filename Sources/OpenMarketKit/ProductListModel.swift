import Foundation
import Observation

/// The catalogue screen: pages loaded as the list scrolls, a search, a refresh that starts over, and
/// the list/grid choice, remembered. Usable from SwiftUI (it is `@Observable`) and testable anywhere.
@MainActor @Observable
public final class ProductListModel {
    /// Where the catalogue screen is.
    public enum State: Equatable, Sendable {
        /// Nothing asked for yet.
        case idle
        /// The first page is on its way.
        case loading
        /// Products are shown.
        case loaded
        /// The market, or the search, has no products.
        case empty
        /// Nothing can be shown, and why, in a sentence for a person.
        case failed(String)
    }

    /// How the products are laid out.
    public enum Layout: String, Sendable, CaseIterable {
        /// One product a row.
        case list
        /// Products side by side.
        case grid
    }

    /// The products shown, in the list's order, every page loaded so far.
    public private(set) var products: [ProductListing] = []
    /// `failed` only with nothing to show: a further page that fails keeps the rows and says why in `pageError`.
    public private(set) var state: State = .idle
    /// Why the last further page did not arrive, for a footer with a Retry button; nil otherwise.
    public private(set) var pageError: String?
    /// True while a page is on its way; no second request starts meanwhile.
    public private(set) var isLoading = false
    /// What the list is searched for; empty when it is not.
    public private(set) var searchText = ""
    /// The order chosen with `sort(by:)`; nil: best matches first when searching, else newest, as Korean apps list.
    public private(set) var chosenSort: ProductArrangement.Order?
    /// The order the list is in.
    public var sort: ProductArrangement.Order { chosenSort ?? (searchText.isEmpty ? .newest : .relevance) }
    /// The list or grid choice, remembered in the `UserDefaults` the model was given.
    public var layout: Layout {
        didSet { preferences.set(layout.rawValue, forKey: Self.layoutKey) }
    }

    private let client: any OpenMarketAPI
    private let pageSize: Int
    @ObservationIgnored private let preferences: UserDefaults
    private var loadedPages = 0
    /// Whether pages beyond those shown exist: false shows an end-of-list footer.
    public private(set) var hasMorePages = true
    /// Answers that arrive after a refresh or a new search started are dropped.
    private var generation = 0

    static let layoutKey = "OpenMarketKit.ProductListModel.layout"

    /// A catalogue read through `client`, `pageSize` products a page, its layout remembered in `preferences`.
    public init(client: any OpenMarketAPI, pageSize: Int = 20, preferences: UserDefaults = .standard) {
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
        await load(page: loadedPages + 1, replacing: false)
    }

    /// Asks again for what failed: the first page, or the further page in `pageError`.
    public func retry() async { await loadNextPage() }

    /// Loads `number`; a refresh (`replacing`) swaps the rows only once the new page has arrived.
    private func load(page number: Int, replacing: Bool) async {
        isLoading = true
        if products.isEmpty { state = .loading }
        let generation = generation
        defer { if generation == self.generation { isLoading = false } }
        do {
            // After the last product shown: a product listed or deleted meanwhile shifts nothing.
            let page = try await client.products(
                page: number, itemsPerPage: pageSize, search: searchText.isEmpty ? nil : searchText,
                sort: sort == .newest ? nil : sort, after: replacing || sort != .newest ? nil : products.last?.id)
            guard generation == self.generation else { return }
            if replacing { products = [] }
            products += page.products.filter { new in !products.contains { $0.id == new.id } }
            loadedPages = number
            hasMorePages = page.hasNext
            pageError = nil
            state = products.isEmpty ? .empty : .loaded
        } catch {
            guard generation == self.generation else { return }
            if error is CancellationError {
                // The screen went away or a refresh replaced this load: nothing failed.
                state = products.isEmpty ? .idle : .loaded
            } else if products.isEmpty {
                state = .failed(error.localizedDescription)
            } else {
                pageError = error.localizedDescription
            }
        }
    }

    /// Asks for the next page when `product` is among the last few shown: before the bottom is reached.
    public func loadMoreIfNeeded(after product: ProductListing) async {
        if let index = products.firstIndex(where: { $0.id == product.id }), index >= products.count - 5 {
            await loadNextPage()
        }
    }

    /// Starts over from the first page, keeping the rows shown until it arrives.
    public func refresh() async {
        generation += 1
        hasMorePages = true
        pageError = nil
        await load(page: 1, replacing: true)
    }

    /// Shows what matches `text`; the rows of the previous search go at once, as they no longer match.
    public func search(_ text: String) async {
        searchText = text.trimmingCharacters(in: .whitespacesAndNewlines)
        await startOver()
    }

    /// Lists in `order` (nil: `sort`'s default); the rows go at once, as their order no longer holds.
    public func sort(by order: ProductArrangement.Order?) async {
        chosenSort = order
        await startOver()
    }

    private func startOver() async {
        products = []
        loadedPages = 0
        await refresh()
    }
}
