import GRDB
import MarketModel

/// The SQL of a list a shopper arranged (`ProductArrangement`): which products on show, as
/// conditions on `product p`, and in which order, in terms of `p` too.
struct ArrangedList {
    var conditions: [String] = ["p.hidden = 0"]
    /// Where a page continues after a cursor: the list's total does not count it.
    var cursor = ""
    var order: String
    var arguments: StatementArguments = [:]
    /// Whether the order is 정확도순's rank, which only the newest `rankedMatches` matches get.
    private(set) var ranks = false
    /// The ids the term's index finds (for `IN`), and where the list's conditions test the term.
    private let matched: String?
    private let matchesJoined: (from: String, condition: String)?
    private var searchCondition: Int?
    /// Whether a price range or the stock narrows the list beyond the search.
    private let narrowed: Bool
    /// Whether the page walks a price index, testing each id against the term's matches.
    private let walksPrices: Bool

    /// The list of a term `found` among `shown` products on show (`ProductArrangement.isDense`:
    /// walking the list's own order finds a page sooner), whose page ends `reach` products in.
    init(
        _ arrangement: ProductArrangement, term: String?, filter: SearchFilter, found: Int, shown: Int, reach: Int,
        after: Int64?
    ) {
        arguments += ["term": term, "search": filter.argument]
        matched = filter.matchedIDs
        matchesJoined = filter.matchesJoined
        narrowed = arrangement.prices != nil || !arrangement.showsSoldOut
        let dense = ProductArrangement.isDense(found: found, shown: shown)
        walksPrices = arrangement.walksPrices(found: found, shown: shown, reach: reach)
        if term != nil, dense {
            searchCondition = conditions.count
            conditions.append("instr(p.searchText, :term) > 0")
        } else if let matched {
            searchCondition = conditions.count
            conditions.append("p.id IN (\(matched))")
        }
        if let prices = arrangement.prices {
            conditions.append("p.currency = :currency AND p.price - p.discount BETWEEN :lowest AND :highest")
            arguments += ["currency": prices.currency.rawValue, "lowest": prices.lowest, "highest": prices.highest]
        }
        if !arrangement.showsSoldOut { conditions.append("p.stock > 0") }
        if let after, arrangement.isByAge {
            cursor = " AND p.id < :after"
            arguments += ["after": after]
        }
        switch arrangement.order {
        case .relevance where term != nil:
            order = "CASE WHEN p.id >= :rankedFrom THEN \(Self.rank(of: "p.searchText")) ELSE 6 END, p.id DESC"
            arguments += ["separators": ProductArrangement.wordSeparators, "rankedFrom": 0]
            ranks = true
        case .relevance, .newest: order = "p.id DESC"
        // The price indexes hold these orders as they are.
        case .lowestPrice: order = "p.currency, p.price - p.discount, p.id DESC"
        case .highestPrice: order = "p.currency, p.price - p.discount DESC, p.id DESC"
        }
    }

    /// The list's products, wherever the page begins.
    var whereClause: String { conditions.joined(separator: " AND ") }

    /// The page's ids in order (the caller adds LIMIT and OFFSET). When only the matches from
    /// `:rankedFrom` on are ranked, the older ones are walked newest first, only as far as the
    /// page reaches (`:older`), so that a common term costs no more than its ranked matches.
    func ids(rankingAll: Bool) -> String {
        var onPage = conditions
        // `+` keeps SQLite from finding the matches by id instead of walking the price index.
        if walksPrices, let searchCondition, let matched { onPage[searchCondition] = "+p.id IN (\(matched))" }
        let listed = "FROM product p WHERE \(onPage.joined(separator: " AND "))\(cursor)"
        guard ranks, !rankingAll else { return "SELECT p.id \(listed) ORDER BY \(order)" }
        // The ranked matches straight from the index, by their numbers, however common the term.
        var window = conditions
        if let searchCondition, let matched {
            window[searchCondition] = "p.id IN (\(matched) AND rowid >= :rankedFrom)"
        }
        let ranked = "FROM product p WHERE \(window.joined(separator: " AND "))\(cursor)"
        return """
            SELECT id FROM (
                SELECT * FROM (SELECT p.id, \(Self.rank(of: "p.searchText")) AS rank \(ranked) AND p.id >= :rankedFrom)
                UNION ALL
                SELECT * FROM (SELECT p.id, 6 AS rank \(listed) AND p.id < :rankedFrom ORDER BY p.id DESC LIMIT :older))
            ORDER BY rank, id DESC
            """
    }

    /// 정확도순 puts the ranked products whose name holds the term as a whole word before all others, newest first. `walk`
    /// finds them from the newest match, ranking one at a time (the caller adds LIMIT); `heldFromLast` counts the
    /// products the list holds from the last one found (`:last`) on, which must be among the ranked. A page found so
    /// ranks a few dozen matches instead of the newest `rankedMatches`. Nil for other orders.
    var bestRanked: (walk: String, heldFromLast: String)? {
        guard ranks else { return nil }
        var others = conditions
        var fromLast = conditions
        var source = "FROM product p"
        var newest = "p.id DESC"
        if let searchCondition, let matched, let matchesJoined {
            others[searchCondition] = matchesJoined.condition
            fromLast[searchCondition] = "p.id IN (\(matched) AND rowid >= :last)"
            (source, newest) = ("FROM \(matchesJoined.from)", "m.rowid DESC")
        }
        return (
            "SELECT p.id \(source) WHERE \(others.joined(separator: " AND ")) AND \(Self.rank(of: "p.searchText")) = 0 ORDER BY \(newest)",
            "SELECT count(*) FROM product p WHERE \(fromLast.joined(separator: " AND ")) AND p.id >= :last"
        )
    }

    /// The oldest of the newest `rankedMatches` products the list holds, or nil when it holds no more.
    var rankedFromSQL: String {
        let offset = "LIMIT 1 OFFSET \(ProductArrangement.rankedMatches - 1)"
        // Unnarrowed, the index alone holds the list, newest last.
        if let matched, !narrowed { return "\(matched) ORDER BY rowid DESC \(offset)" }
        return "SELECT p.id FROM product p WHERE \(whereClause) ORDER BY p.id DESC \(offset)"
    }

    /// Where `:term` first stands in `text` (a search text: the name, a line break, the description), as
    /// `ProductArrangement.Order.relevance` ranks it: 0–2 in the name, 3–5 in the description.
    static func rank(of text: String) -> String {
        let at = "instr(\(text), :term)"
        let before = "instr(:separators, substr(\(text), \(at) - 1, 1)) > 0"
        let after = "instr(:separators, substr(\(text), \(at) + length(:term), 1)) > 0"
        return """
            (CASE WHEN \(at) < instr(\(text), char(10)) THEN 0 ELSE 3 END
            + CASE WHEN \(before) THEN CASE WHEN \(after) THEN 0 ELSE 1 END ELSE 2 END)
            """
    }
}
