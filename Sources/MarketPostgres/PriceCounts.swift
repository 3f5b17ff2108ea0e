import MarketModel
import PostgresNIO

/// How many products on show the buyer pays each amount for, by currency and by whether they are
/// in stock (`product_price_count`), kept by triggers on `product`: a price range's total adds up
/// a row for each price in the range instead of stepping over each product's entry in the price
/// index.
enum PriceCounts {
    /// How many products on show, in stock or not, lie in `range`.
    static func total(in range: PriceRange, inStockOnly: Bool) -> PostgresQuery {
        """
        SELECT coalesce(sum(count), 0)::bigint FROM product_price_count
        WHERE currency = \(range.currency.rawValue) AND amount BETWEEN \(range.lowest) AND \(range.highest)\(unescaped: inStockOnly ? " AND in_stock" : "")
        """
    }

    /// How many products on show are sold out.
    static let soldOut: PostgresQuery =
        "SELECT coalesce(sum(count), 0)::bigint FROM product_price_count WHERE NOT in_stock"
}
