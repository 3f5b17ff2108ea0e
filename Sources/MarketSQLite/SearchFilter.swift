import MarketModel

/// How a list finds its products: all of them, or those a search index finds (the trigram index
/// for terms of three characters and more, `ShortTerms` for shorter ones); and in which order.
struct SearchFilter {
    enum Source {
        case everything
        /// The FTS5 `index` and what it is asked (`MATCH`).
        case indexed(index: String, query: String)
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
        // Both indexes count characters as Unicode scalars. An FTS5 phrase in double quotes matches
        // the text as a substring; quotes inside double.
        source =
            search.unicodeScalars.count >= 3
            ? .indexed(
                index: "productSearch", query: "\"" + search.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            : .indexed(index: "productGrams", query: ShortTerms.query(search))
    }

    var argument: String? {
        switch source {
        case .everything: nil
        case .indexed(_, let query): query
        }
    }

    var countSQL: String {
        switch source {
        case .everything: "SELECT count FROM productTotal"
        case .indexed(let index, _): "SELECT count(*) FROM \(index) WHERE \(index) MATCH :search"
        }
    }

    /// In order; the caller adds LIMIT and OFFSET.
    var idsSQL: String {
        switch source {
        case .everything:
            "SELECT id FROM product WHERE hidden = 0\(beyondCursor.isEmpty ? "" : " AND id" + beyondCursor) ORDER BY id \(direction)"
        case .indexed(let index, _):
            """
            SELECT rowid AS id FROM \(index) WHERE \(index) MATCH :search\(beyondCursor.isEmpty ? "" : " AND rowid" + beyondCursor)
            ORDER BY rowid \(direction)
            """
        }
    }
}
