import MarketModel
import OpenMarketKit

/// Products as a person reads them in a terminal.
enum ProductTable {
    static func list(_ page: ProductPage) -> String {
        guard !page.products.isEmpty else { return "no products on page \(page.number) (\(page.totalCount) in all)" }
        let rows =
            [["ID", "NAME", "PRICE", "STOCK"]] + page.products.map { [String($0.id), $0.name, price($0), stock($0)] }
        let lines = TextTable.lines(rows)
        let footer = "page \(page.number) of \(max(page.lastPage, 1)), \(page.totalCount) products"
        return (lines + [footer]).joined(separator: "\n")
    }

    static func card(_ product: ProductDetails) -> String {
        let listing = product.listing
        var lines = [
            "\(listing.id)  \(listing.name)",
            "price:   \(price(listing))",
            "stock:   \(stock(listing))",
            "vendor:  \(product.vendorName)",
            "listed:  \(listing.createdAt.formatted(date: .abbreviated, time: .omitted))",
        ]
        if !listing.description.isEmpty { lines += ["", listing.description, ""] }
        lines += product.images.map { "picture \($0.id): \($0.url.absoluteString)" }
        return lines.joined(separator: "\n")
    }

    /// "9,000 KRW", or "10,000 → 9,000 KRW" when discounted.
    static func price(_ listing: ProductListing) -> String {
        let sale = "\(listing.bargainPrice.formatted()) \(listing.currency.rawValue)"
        return listing.isDiscounted ? "\(listing.price.formatted()) → \(sale)" : sale
    }

    static func stock(_ listing: ProductListing) -> String { listing.isSoldOut ? "sold out" : String(listing.stock) }
}
