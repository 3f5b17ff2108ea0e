import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// The catalogue and a product's page: what anyone may see.
extension Storefront {
    @Sendable func catalogue(_ request: Request, context: StorefrontContext) async throws -> Response {
        var visit = context.visit
        let query = request.queryFields
        var view = visit.view
        if let chosen = query["view"].flatMap(CatalogueView.init) {
            view = chosen
            visit.remember(view: chosen)
        }
        let number = min(max(Int(query["page"] ?? "") ?? 1, 1), PageRequest.maximumPageNumber)
        let search = query["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        // The next page continues after the last card shown, so that endless scrolling through a
        // market that changes meanwhile neither skips nor repeats a product.
        let after = query["after"].flatMap { Int64($0) }
        let page = try await service.products(
            PageRequest(number: number, itemsPerPage: Self.pageSize, after: after),
            search: search.isEmpty ? nil : search)
        func link(page: Int?, after: Int64? = nil, view: CatalogueView? = nil) -> String {
            var items: [URLQueryItem] = []
            if !search.isEmpty { items.append(URLQueryItem(name: "q", value: search)) }
            if let page { items.append(URLQueryItem(name: "page", value: String(page))) }
            if let after { items.append(URLQueryItem(name: "after", value: String(after))) }
            if let view { items.append(URLQueryItem(name: "view", value: view.rawValue)) }
            var components = URLComponents()
            components.path = "/"
            components.queryItems = items.isEmpty ? nil : items
            return components.string ?? "/"
        }
        let other: CatalogueView = view == .list ? .grid : .list
        let content: [String: Any] = [
            "cards": page.items.map(ProductCard.init),
            "isGrid": view == .grid,
            "otherView": other.rawValue,
            "otherViewName": other == .grid ? "Grid" : "List",
            "search": search,
            "summary": Self.summary(total: page.totalCount, search: search),
            "pageNumber": number,
            "lastPage": max(page.lastPage, 1),
            "nextPage": page.hasNext ? link(page: number + 1, after: page.items.last?.id) : false,
            "previousPage": page.hasPrevious ? link(page: number - 1) : false,
            "refresh": link(page: nil),
        ]
        return pages.page("catalogue", title: "For sale", visit: visit, content: content)
    }

    private static func summary(total: Int, search: String) -> String {
        let count = total == 1 ? "1 product" : "\(total) products"
        guard !search.isEmpty else { return total == 0 ? "Nothing is for sale yet." : "\(count) for sale" }
        return total == 0 ? "No product matches “\(search)”." : "\(count) match “\(search)”"
    }

    @Sendable func product(_ request: Request, context: StorefrontContext) async throws -> Response {
        let product = try await service.product(id: try context.productID())
        return pages.page(
            "product", title: product.name, visit: context.visit,
            content: ["product": ProductSheet(product), "secretError": false])
    }
}
