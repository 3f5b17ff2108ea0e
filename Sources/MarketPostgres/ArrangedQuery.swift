import MarketModel
import PostgresNIO

/// The SQL of a list a shopper arranged (`ProductArrangement`). Each query is planned for its bound
/// values, so that a price range or a rare term uses its index.
struct ArrangedQuery {
    private var binds = PostgresBindings()
    private var conditions = ["NOT p.hidden"]
    /// A page's cursor, kept out of `conditions` so that the list's total does not count it.
    private var cursor = ""
    private let term: String?
    private let order: ProductArrangement.Order
    /// A term that is not dense is found through its index before the list is ordered: its `page`
    /// then ends each row with how many products the list holds, as it finds every one of them anyway.
    let matchesFirst: Bool
    /// For a page that walks a price index (`ProductArrangement.walksPrices`): which of
    /// `conditions` is the term's, and what the page tests in its place.
    private var walked: (index: Int, condition: String)?
    /// How many products the list holds, wherever a page begins (its values are bound first).
    private(set) var count: PostgresQuery = ""
    /// For an in-stock list, how many sold-out products it leaves out: with no price range, its total
    /// is what the search finds less these (when `HeldCountQuery` did not count them).
    private(set) var soldOutCount: PostgresQuery?
    /// The oldest of the newest `rankedMatches` products a 정확도순 list holds (no row when it holds
    /// no more); nil for other orders, and for a term found first, whose page ranks its matches itself.
    private(set) var rankedFrom: PostgresQuery?

    /// `dense`: walking the list's own order finds a page sooner (`ProductArrangement.isDense`).
    /// `walksPrices`: the page walks a price index, testing each entry against the products of the
    /// words that hold the term (which must be known: `HeldCountQuery`).
    init(_ arrangement: ProductArrangement, term: String?, dense: Bool, walksPrices: Bool, after: Int64?) {
        self.term = term
        order = arrangement.order
        matchesFirst = term != nil && !dense && !walksPrices
        if let term {
            let search = SearchCondition(term)
            if !dense, search.gram == nil {
                conditions.append("p.search_text LIKE \(bind(search.pattern))")
            } else {
                let found = bind(term)
                // A short term's grams come from its index. Where the planner walks an order
                // instead, `strpos` tests each row first: working out a row's grams costs far more.
                conditions.append(
                    "strpos(p.search_text, \(found)) > 0"
                        + (dense ? "" : " AND short_grams(p.search_text) @> ARRAY[\(found)::text]"))
            }
            if walksPrices {
                let (held, pattern) = search.heldWordsArguments
                let words = "held_words(\(held.map { bind($0) } ?? "NULL"), \(pattern.map { bind($0) } ?? "NULL"))"
                // An `IN` that is the whole condition is joined: each match's row looked up. Within
                // `OR false` it stays a hashed set that each entry walked is tested against, far cheaper.
                walked = (
                    conditions.count - 1,
                    "(p.id IN (SELECT w.product_id FROM product_word w WHERE w.word = ANY (\(words))) OR false)"
                )
            }
        }
        if let prices = arrangement.prices {
            conditions.append(
                "p.currency = \(bind(prices.currency.rawValue)) AND p.price - p.discount BETWEEN \(bind(prices.lowest)) AND \(bind(prices.highest))"
            )
        }
        if !arrangement.showsSoldOut {
            soldOutCount =
                term == nil
                ? PriceCounts.soldOut
                : PostgresQuery(
                    unsafeSQL: "SELECT count(*) FROM product p WHERE \(whereClause) AND p.stock = 0", binds: binds)
            conditions.append("p.stock > 0")
        }
        count =
            if term == nil, let prices = arrangement.prices {
                PriceCounts.total(in: prices, inStockOnly: !arrangement.showsSoldOut)
            } else {
                PostgresQuery(unsafeSQL: "SELECT count(*) FROM product p WHERE \(whereClause)", binds: binds)
            }
        if order == .relevance, term != nil, !matchesFirst {
            rankedFrom = PostgresQuery(
                unsafeSQL: """
                    SELECT p.id FROM product p WHERE \(whereClause)
                    ORDER BY p.id DESC OFFSET \(ProductArrangement.rankedMatches - 1) LIMIT 1
                    """, binds: binds)
        }
        if let after, arrangement.isByAge { cursor = " AND p.id < \(bind(after))" }
    }

    private mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    private var whereClause: String { conditions.joined(separator: " AND ") }

    /// Where a page's ids come from, with `listed` (`p` either way). A term that is not dense has its
    /// matches found first: from sampled texts the planner can take a rare word for a common one.
    private var matches: String {
        guard matchesFirst else { return "" }
        return
            "WITH p AS MATERIALIZED (SELECT p.id, p.currency, p.price, p.discount, p.search_text FROM product p WHERE \(whereClause)) "
    }

    /// The list's products, as `FROM`, after `matches`.
    private var listed: String {
        guard !matchesFirst else { return "FROM p WHERE true" }
        var onPage = conditions
        if let walked { onPage[walked.index] = walked.condition }
        return "FROM product p WHERE \(onPage.joined(separator: " AND "))"
    }

    /// The page's summaries in order (only the page's rows joined), each followed by the list's total
    /// when `matchesFirst`. Matches older than `rankedFrom` are walked newest first only as far as
    /// the page reaches, so that a common term costs no more than its ranked matches.
    func page(limit: Int, offset: Int, rankedFrom: Int64?) -> PostgresQuery {
        var query = self
        let listed = self.listed + cursor
        let ids: String
        switch (order, term) {
        case (.relevance, let term?):
            let rank = query.rank(term)
            if matchesFirst {
                // Every match is known already: the newest `rankedMatches` of them are ranked as they are
                // numbered, without a statement first to find where those begin.
                ids = """
                    SELECT id FROM (
                        SELECT p.id, CASE WHEN row_number() OVER (ORDER BY p.id DESC) <= \(ProductArrangement.rankedMatches)
                            THEN \(rank) ELSE 6 END AS rank \(listed)
                    ) AS ranked ORDER BY rank, id DESC
                    """
            } else if let rankedFrom {
                let from = query.bind(rankedFrom)
                let older = query.bind(max(offset + limit - ProductArrangement.rankedMatches, 0))
                ids = """
                    SELECT id FROM (
                        (SELECT p.id, \(rank) AS rank \(listed) AND p.id >= \(from))
                        UNION ALL
                        (SELECT p.id, 6 \(listed) AND p.id < \(from) ORDER BY p.id DESC LIMIT \(older))
                    ) AS ranked ORDER BY rank, id DESC
                    """
            } else {
                ids = "SELECT p.id \(listed) ORDER BY \(rank), p.id DESC"
            }
        case (.relevance, nil), (.newest, _): ids = "SELECT p.id \(listed) ORDER BY p.id DESC"
        // The price indexes hold these orders as they are.
        case (.lowestPrice, _): ids = "SELECT p.id \(listed) ORDER BY p.currency, p.price - p.discount, p.id DESC"
        case (.highestPrice, _): ids = "SELECT p.id \(listed) ORDER BY p.currency, p.price - p.discount DESC, p.id DESC"
        }
        return PostgresQuery(
            unsafeSQL: """
                \(matches)SELECT \(PostgresMarketStore.summaryColumns)\(matchesFirst ? ", (SELECT count(*) FROM p)" : "")
                FROM unnest(ARRAY(\(ids) LIMIT \(limit) OFFSET \(offset))) WITH ORDINALITY AS page(id, position)
                JOIN product p ON p.id = page.id \(PostgresMarketStore.summaryJoins)
                ORDER BY page.position
                """, binds: query.binds)
    }

    /// How `ProductArrangement.Order.relevance` ranks a product: where the term first stands in its text.
    private mutating func rank(_ term: String) -> String {
        "relevance_rank(p.search_text, \(bind(term)), \(bind(ProductArrangement.wordSeparators)))"
    }
}
