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

    init(_ arrangement: ProductArrangement, term: String?, filter: SearchFilter, after: Int64?) {
        if let matched = filter.matchedIDs {
            conditions.append("p.id IN (\(matched))")
            arguments += ["search": filter.argument]
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
            order = "\(Self.rank(of: "p.searchText")), p.id DESC"
            arguments += ["term": term, "separators": ProductArrangement.wordSeparators]
        case .relevance, .newest: order = "p.id DESC"
        // The price indexes hold these orders as they are.
        case .lowestPrice: order = "p.currency, p.price - p.discount, p.id DESC"
        case .highestPrice: order = "p.currency, p.price - p.discount DESC, p.id DESC"
        }
    }

    /// The list's products, wherever the page begins.
    var whereClause: String { conditions.joined(separator: " AND ") }

    /// Where `:term` first stands in `text` (a search text: the name, a line break, the
    /// description), as `ProductArrangement.Order.relevance` ranks it: 0–2 in the name, 3–5 in the
    /// description. A few string functions a row: every match is ranked.
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
