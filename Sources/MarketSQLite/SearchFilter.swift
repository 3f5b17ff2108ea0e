import MarketModel

/// How a list finds its products: all of them, through the trigram index, or (for terms shorter
/// than a trigram) by reading every row's search text; and in which order.
struct SearchFilter {
    enum Source {
        case everything
        case indexed(phrase: String)
        case scanned(term: String)
    }

    var source: Source
    /// `DESC` for newest first, `ASC` for oldest first.
    var direction: String
    /// The ids beyond a cursor (`:after`) in the list's order, or nothing.
    var beyondCursor: String

    init(_ search: String?, order: ListOrder, after: Int64? = nil) {
        direction = order == .newestFirst ? "DESC" : "ASC"
        beyondCursor = after == nil ? "" : order == .newestFirst ? " < :after" : " > :after"
        guard let search else {
            source = .everything
            return
        }
        // An FTS5 phrase in double quotes matches the text as a substring; quotes inside double.
        source =
            search.count >= 3
            ? .indexed(phrase: "\"" + search.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            : .scanned(term: search)
    }

    var argument: String? {
        switch source {
        case .everything: nil
        case .indexed(let phrase): phrase
        case .scanned(let term): term
        }
    }

    var countSQL: String {
        switch source {
        case .everything: "SELECT count FROM productTotal"
        case .indexed: "SELECT count(*) FROM productSearch WHERE productSearch MATCH :search"
        case .scanned: "SELECT count(*) FROM product WHERE hidden = 0 AND instr(searchText, :search) > 0"
        }
    }

    /// In order; the caller adds LIMIT and OFFSET.
    var idsSQL: String {
        switch source {
        case .everything:
            "SELECT id FROM product WHERE hidden = 0\(beyondCursor.isEmpty ? "" : " AND id" + beyondCursor) ORDER BY id \(direction)"
        case .indexed:
            """
            SELECT rowid AS id FROM productSearch WHERE productSearch MATCH :search\(beyondCursor.isEmpty ? "" : " AND rowid" + beyondCursor)
            ORDER BY rowid \(direction)
            """
        case .scanned:
            """
            SELECT id FROM product WHERE hidden = 0 AND instr(searchText, :search) > 0\(beyondCursor.isEmpty ? "" : " AND id" + beyondCursor)
            ORDER BY id \(direction)
            """
        }
    }
}
