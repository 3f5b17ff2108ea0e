import MarketModel
import PostgresNIO

/// The SQL of a list a shopper arranged (`ProductArrangement`): which products on show, as
/// conditions on `product p`, and in which order. Each value is bound, and each query planned for
/// its values, so that a price range or a rare term uses its index.
struct ArrangedQuery {
    private var binds = PostgresBindings()
    private var conditions = ["NOT p.hidden"]
    private var order = "p.id DESC"
    /// Where a page continues after a cursor: the list's total does not count it.
    private var cursor = ""

    init(_ arrangement: ProductArrangement, term: String?, after: Int64?) {
        if let term {
            let search = SearchCondition(term)
            conditions.append(
                search.gram.map { "short_grams(p.search_text) @> ARRAY[\(bind($0))::text]" }
                    ?? "p.search_text LIKE \(bind(search.pattern))")
        }
        if let prices = arrangement.prices {
            conditions.append(
                "p.currency = \(bind(prices.currency.rawValue)) AND p.price - p.discount BETWEEN \(bind(prices.lowest)) AND \(bind(prices.highest))"
            )
        }
        if !arrangement.showsSoldOut { conditions.append("p.stock > 0") }
        count = PostgresQuery(unsafeSQL: "SELECT count(*) FROM product p WHERE \(whereClause)", binds: binds)
        if let after, arrangement.isByAge { cursor = " AND p.id < \(bind(after))" }
        switch arrangement.order {
        case .relevance: if let term { order = "\(rank(term)), p.id DESC" }
        case .newest: break
        // The price indexes hold these orders as they are.
        case .lowestPrice: order = "p.currency, p.price - p.discount, p.id DESC"
        case .highestPrice: order = "p.currency, p.price - p.discount DESC, p.id DESC"
        }
    }

    private mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    private var whereClause: String { conditions.joined(separator: " AND ") }

    /// How many products the list holds, wherever a page begins (its values are bound first).
    private(set) var count: PostgresQuery = ""

    /// The page's summaries, in order: the ids from the arranged list, then only their rows joined.
    func page(limit: Int, offset: Int) -> PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                SELECT \(PostgresMarketStore.summaryColumns)
                FROM unnest(ARRAY(
                    SELECT p.id FROM product p WHERE \(whereClause)\(cursor) ORDER BY \(order) LIMIT \(limit) OFFSET \(offset)
                )) WITH ORDINALITY AS page(id, position)
                JOIN product p ON p.id = page.id \(PostgresMarketStore.summaryJoins)
                ORDER BY page.position
                """, binds: binds)
    }

    /// Where the term first stands in a product's search text (its name, a line break, its
    /// description), as `ProductArrangement.Order.relevance` ranks it: 0–2 in the name, 3–5 in the
    /// description. A few string functions a row: every match is ranked.
    private mutating func rank(_ term: String) -> String {
        let (found, separators) = (bind(term), bind(ProductArrangement.wordSeparators))
        let at = "strpos(p.search_text, \(found))"
        let before = "strpos(\(separators), substr(p.search_text, \(at) - 1, 1)) > 0"
        let after = "strpos(\(separators), substr(p.search_text, \(at) + length(\(found)), 1)) > 0"
        return """
            (CASE WHEN \(at) < strpos(p.search_text, E'\\n') THEN 0 ELSE 3 END
            + CASE WHEN \(before) THEN CASE WHEN \(after) THEN 0 ELSE 1 END ELSE 2 END)
            """
    }
}
