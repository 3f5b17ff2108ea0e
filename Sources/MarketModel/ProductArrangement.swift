/// How a shopper arranges a list, as Korean market apps let them: its order, a price range and whether sold-out
/// products show. The APIs list `asListed` unless a client asks for an order.
public struct ProductArrangement: Sendable, Hashable {
    public enum Order: String, Sendable, CaseIterable {
        /// 정확도순, by where the term first appears: in the name before the description; in each, as a whole word
        /// before a word's start before inside a word; newest first among equals. Of a term found more than
        /// `rankedMatches` times, the newest that many are ranked and the rest follow; without a search, newest first.
        case relevance
        /// 최신순.
        case newest
        /// 낮은 가격순: by the price the buyer pays (price less discount), newest first among equals.
        /// Amounts in different currencies are never compared: won come before dollars.
        case lowestPrice = "lowest-price"
        /// 높은 가격순, the same way.
        case highestPrice = "highest-price"
    }

    public var order: Order
    /// Only products whose buyer's price lies in this range, in its currency.
    public var prices: PriceRange?
    public var showsSoldOut: Bool

    public init(order: Order = .newest, prices: PriceRange? = nil, showsSoldOut: Bool = true) {
        self.order = order
        self.prices = prices
        self.showsSoldOut = showsSoldOut
    }

    /// Every product in the page's own order (newest or oldest first), as the APIs list.
    public static let asListed = ProductArrangement()

    /// Whether the list is in id order, where a page may continue after a cursor.
    public var isByAge: Bool { order == .newest }

    /// How many of a term's newest matches 정확도순 ranks: enough for every page a person scrolls
    /// through, and a bound on what one page of a common syllable costs.
    public static let rankedMatches = 2_000

    /// Whether a term is so common that walking a list's own order and testing each product fills a page sooner than
    /// gathering every match from the term's index first.
    public static func isDense<Count: BinaryInteger>(found: Count, shown: Count) -> Bool { found * 50 >= shown }

    /// Whether a page by price ending `reach` matches in, of a term `found` among `shown` products, is read sooner by
    /// walking the price index and testing each entry (about `reach × shown ÷ found`) than by reading and sorting every
    /// match's row, a row costing eight entries as in SQLite (more in PostgreSQL, where the rule is a little cautious).
    public func walksPrices(found: Int, shown: Int, reach: Int) -> Bool {
        [.lowestPrice, .highestPrice].contains(order) && !Self.isDense(found: found, shown: shown)
            && Double(reach) * Double(shown) <= 8 * Double(found) * Double(found)
    }

    /// What separates words for `Order.relevance`: a term between these (or the text's ends) is a whole word.
    public static let wordSeparators = " \n\t,.!?()[]/·"
}

/// Prices a buyer pays from `lowest` to `highest` (either open), in one currency; reversed bounds are swapped, as
/// a shopper meant them.
public struct PriceRange: Sendable, Hashable {
    public var currency: Currency
    public var lowest: Int64
    public var highest: Int64

    public init(currency: Currency, lowest: Int64? = nil, highest: Int64? = nil) {
        self.currency = currency
        let (low, high) = (max(lowest ?? 0, 0), min(highest ?? MarketRules.maximumAmount, MarketRules.maximumAmount))
        (self.lowest, self.highest) = (min(low, high), max(low, high))
    }
}
