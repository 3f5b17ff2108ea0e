import MarketModel

/// How a list finds its products: all, through the trigram index (terms of three characters and more), or `ShortTerms`
/// (shorter ones, totals kept); and in which order. Both indexes count characters as Unicode scalars.
struct SearchFilter {
    enum Source {
        case everything
        /// A double-quoted FTS5 phrase, matching a substring; and whether the term lies inside one word (`WholeWords`).
        case trigrams(phrase: String, inOneWord: Bool)
        case grams(token: String)
    }

    var source: Source
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
        source =
            search.unicodeScalars.count >= 3
            ? .trigrams(
                phrase: "\"" + search.replacingOccurrences(of: "\"", with: "\"\"") + "\"",
                inOneWord: WholeWords.holdsWhole(search))
            : .grams(token: ShortTerms.token(search))
    }

    var argument: String? {
        switch source {
        case .everything: nil
        case .trigrams(let phrase, _): phrase
        case .grams(let token): token
        }
    }

    var countSQL: String {
        switch source {
        case .everything: "SELECT count FROM productTotal"
        case .trigrams(_, inOneWord: false): Self.matchesCounted
        // The one word that holds the term, if only one does; else every match counted.
        case .trigrams(_, inOneWord: true):
            """
            SELECT coalesce((
                SELECT CASE count(*) WHEN 0 THEN 0 WHEN 1 THEN max(count) END FROM (
                    SELECT w.count FROM searchWordText JOIN searchWord w ON w.id = searchWordText.rowid
                    WHERE searchWordText MATCH :search LIMIT 2)),
                (\(Self.matchesCounted)))
            """
        case .grams: "SELECT coalesce((SELECT count FROM productGramCount WHERE gram = :search), 0)"
        }
    }

    private static let matchesCounted = "SELECT count(*) FROM productSearch WHERE productSearch MATCH :search"

    /// How many of the products that match are sold out: kept for a short term, counted among the
    /// sold-out products for a longer one (`SoldOutSearch`); nil for every product (`PriceCounts`).
    var soldOutCountSQL: String? {
        switch source {
        case .everything: nil
        case .trigrams: "SELECT count(*) FROM productSoldOutSearch WHERE productSoldOutSearch MATCH :search"
        case .grams: "SELECT coalesce((SELECT soldOut FROM productGramCount WHERE gram = :search), 0)"
        }
    }

    /// The index's matches joined to their rows (`p`), newest first once ordered by `m.rowid DESC`:
    /// `FROM` and the condition that finds them; nil for every product.
    var matchesJoined: (from: String, condition: String)? {
        index.map { ("\($0.table) m JOIN product p ON p.id = m.rowid", "\($0.table) MATCH \($0.match)") }
    }

    /// The index that finds the term and how it is asked, or nil for every product.
    private var index: (table: String, match: String)? {
        switch source {
        case .everything: nil
        case .trigrams: ("productSearch", ":search")
        case .grams: ("productGrams", "'\"' || :search || '\"'")
        }
    }

    /// In order; the caller adds LIMIT and OFFSET.
    var idsSQL: String {
        guard let (index, match) = index else {
            return
                "SELECT id FROM product WHERE hidden = 0\(beyondCursor.isEmpty ? "" : " AND id" + beyondCursor) ORDER BY id \(direction)"
        }
        return """
            SELECT rowid AS id FROM \(index) WHERE \(index) MATCH \(match)\(beyondCursor.isEmpty ? "" : " AND rowid" + beyondCursor)
            ORDER BY rowid \(direction)
            """
    }

    /// The ids of the products that match, for `IN`; nil for every product.
    var matchedIDs: String? { index.map { "SELECT rowid FROM \($0.table) WHERE \($0.table) MATCH \($0.match)" } }
}
