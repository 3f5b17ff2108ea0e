import MarketModel
import PostgresNIO

/// How many products on show sell at each price, by currency and stock, kept by triggers on `product`:
/// a price range's total sums a row per price instead of stepping through the price index.
enum PriceCounts {
    static func total(in range: PriceRange, inStockOnly: Bool) -> PostgresQuery {
        """
        SELECT coalesce(sum(count), 0)::bigint FROM product_price_count
        WHERE currency = \(range.currency.rawValue) AND amount BETWEEN \(range.lowest) AND \(range.highest)\(unescaped: inStockOnly ? " AND in_stock" : "")
        """
    }

    static let soldOut: PostgresQuery =
        "SELECT coalesce(sum(count), 0)::bigint FROM product_price_count WHERE NOT in_stock"
}
