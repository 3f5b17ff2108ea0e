import PostgresNIO

/// How a search finds its products: a term of four characters and more by `LIKE` through the
/// trigram index, a shorter one among each product's characters and runs of two and three
/// characters (`short_grams`, indexed, each gram's products counted). Both count characters as
/// Unicode scalars, as PostgreSQL does.
struct SearchCondition {
    /// `%term%` for `LIKE`, with LIKE's own wildcards in the term taken literally.
    let pattern: String
    /// A term of one to three characters.
    let gram: String?

    init(_ term: String) {
        let escaped = term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        pattern = "%\(escaped)%"
        gram = term.unicodeScalars.count <= 3 ? term : nil
    }

    /// How many products on show match a term of four characters and more, and how many are on
    /// show (a shorter term's are kept: `GramCountQuery`).
    var count: PostgresQuery {
        """
        SELECT count(*), (SELECT count FROM product_total) FROM product
        WHERE NOT hidden AND search_text LIKE \(pattern)
        """
    }

    /// Whether a page of a short term that ends `reach` matches in, of `found` among `shown`
    /// products, is read the cheaper way by walking the newest products and testing each until the
    /// page is full (about `reach × shown ÷ found` rows, in the order they lie), rather than by
    /// finding every match through `short_grams` first and taking the page from those (`found`
    /// rows, each fetched alone). A row walked costs about a quarter of one fetched (at a million
    /// products, 2.1 ms walking 6,200 rows against 5.4 ms fetching 3,200). So a first page of a
    /// term in one product of 450 or more walks at a million; a rare term's, or one deep in a
    /// common term, is found.
    func walks(found: Int64, shown: Int64, reach: Int) -> Bool {
        Double(reach) * Double(shown) <= 4 * Double(found) * Double(found)
    }
}
