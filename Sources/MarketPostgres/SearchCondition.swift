import PostgresNIO

/// How a search finds its products: a term of three characters and more by `LIKE` through the
/// trigram index, a shorter one among each product's characters and pairs of characters
/// (`short_grams`, indexed). Both count characters as Unicode scalars, as PostgreSQL does.
struct SearchCondition {
    /// `%term%` for `LIKE`, with LIKE's own wildcards in the term taken literally.
    private(set) var pattern: String?
    /// A term of one or two characters.
    private(set) var gram: String?

    init(_ term: String) {
        if term.unicodeScalars.count >= 3 {
            let escaped = term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_")
            pattern = "%\(escaped)%"
        } else {
            gram = term
        }
    }

    /// How many products on show match.
    var count: PostgresQuery {
        if let pattern { return "SELECT count(*) FROM product WHERE NOT hidden AND search_text LIKE \(pattern)" }
        return "SELECT count(*) FROM product WHERE NOT hidden AND short_grams(search_text) @> ARRAY[\(gram)::text]"
    }
}
