import Foundation
import MarketModel
import MarketPages

/// How a shopper arranged the catalogue, as the address keeps it (`sort`, `min`, `max`, `currency`, `in-stock`), so
/// that Back and a shared link show the same list. Only choices that differ from the default are written back.
struct CatalogueFilter {
    var order: ProductArrangement.Order
    /// As typed, for the form to show again.
    var lowest: String
    var highest: String
    var currency: Currency
    var inStockOnly: Bool
    /// The price bounds as amounts; nil when one was not a number.
    var prices: (lowest: Int64?, highest: Int64?)?
    let searching: Bool

    init(_ query: [String: String], searching: Bool) {
        self.searching = searching
        let chosen = query["sort"].flatMap(ProductArrangement.Order.init(rawValue:))
        order = chosen.flatMap { $0 == .relevance && !searching ? nil : $0 } ?? Self.defaultOrder(searching: searching)
        lowest = query["min"]?.trimmingCharacters(in: .whitespaces) ?? ""
        highest = query["max"]?.trimmingCharacters(in: .whitespaces) ?? ""
        currency = query["currency"].flatMap(Currency.init(code:)) ?? .krw
        inStockOnly = query["in-stock"] == "1"
        let (low, high) = (Self.amount(lowest), Self.amount(highest))
        prices = low.isValid && high.isValid ? (low.amount, high.amount) : nil
    }

    /// 정확도순 while searching, as Korean market apps do; 최신순 otherwise.
    static func defaultOrder(searching: Bool) -> ProductArrangement.Order { searching ? .relevance : .newest }

    /// Whether a bound was typed that is not an amount.
    var priceIsWrong: Bool { prices == nil }

    var arrangement: ProductArrangement {
        let range = prices.flatMap { $0.lowest == nil && $0.highest == nil ? nil : $0 }
        return ProductArrangement(
            order: order, prices: range.map { PriceRange(currency: currency, lowest: $0.lowest, highest: $0.highest) },
            showsSoldOut: !inStockOnly)
    }

    /// The choices that differ from the default, for a link to keep them.
    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if order != Self.defaultOrder(searching: searching) {
            items.append(URLQueryItem(name: "sort", value: order.rawValue))
        }
        if !lowest.isEmpty { items.append(URLQueryItem(name: "min", value: lowest)) }
        if !highest.isEmpty { items.append(URLQueryItem(name: "max", value: highest)) }
        if !lowest.isEmpty || !highest.isEmpty, currency != .krw {
            items.append(URLQueryItem(name: "currency", value: currency.rawValue))
        }
        if inStockOnly { items.append(URLQueryItem(name: "in-stock", value: "1")) }
        return items
    }

    /// The orders a shopper may choose here: 정확도순 only while searching.
    var orders: [ProductArrangement.Order] {
        ProductArrangement.Order.allCases.filter { $0 != .relevance || searching }
    }

    /// The catalogue's sort and filter form, filled with this choice.
    func content(_ strings: Localization) -> PageContent {
        /// A select's options: each value, named by its phrase, the chosen one selected.
        func options(_ values: [String], chosen: String, phrase: String) -> [[String: Any]] {
            values.map { ["value": $0, "name": strings(phrase + $0), "selected": $0 == chosen] }
        }
        let priced = !lowest.isEmpty || !highest.isEmpty
        return [
            "orders": options(orders.map(\.rawValue), chosen: order.rawValue, phrase: "order-"),
            "currencies": options(Currency.allCases.map(\.rawValue), chosen: currency.rawValue, phrase: "currency-"),
            "chosenOrder": order == Self.defaultOrder(searching: searching) ? nil : order.rawValue,
            "lowest": lowest.isEmpty ? nil : lowest,
            "highest": highest.isEmpty ? nil : highest,
            "inStockOnly": inStockOnly,
            "priceError": priceIsWrong ? strings("priceRangeWrong") : nil,
            // Won and dollars are never compared: the page says how a list of both is ordered.
            "currencyOrder": [ProductArrangement.Order.lowestPrice, .highestPrice].contains(order)
                && arrangement.prices == nil
                ? strings("currencyOrder") : nil,
            "priced": priced,
            "filtered": priced || inStockOnly,
        ]
    }

    /// An amount as people type it ("12,000", "12000원", "5만원"); empty is no bound.
    private static func amount(_ text: String) -> (isValid: Bool, amount: Int64?) {
        guard !text.isEmpty else { return (true, nil) }
        guard let amount = ProductEntry.amount(text), amount >= 0 else { return (false, nil) }
        return (true, amount)
    }
}
