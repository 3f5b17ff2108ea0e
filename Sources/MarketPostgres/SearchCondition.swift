import PostgresNIO

/// How a search finds its products: a term of four characters and more by `LIKE` (`found_page`), a
/// shorter one among each product's characters and runs of two and three characters (`short_page`;
/// each gram's products counted). Both count characters as Unicode scalars, as PostgreSQL does.
struct SearchCondition {
    let term: String
    /// `%term%` for `LIKE`, with LIKE's own wildcards in the term taken literally.
    let pattern: String
    /// A term of one to three characters.
    let gram: String?

    init(_ term: String) {
        self.term = term
        let escaped = term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        pattern = "%\(escaped)%"
        gram = term.unicodeScalars.count <= 3 ? term : nil
    }

    /// What `held_words` is given to find the words that hold the term: the term when short, its pattern when not.
    var heldWordsArguments: (term: String?, pattern: String?) { (gram, gram == nil ? pattern : nil) }

    /// How many products on show match a term of four characters and more (shorter terms' are kept: `GramCountQuery`).
    var count: PostgresQuery { "SELECT count(*) FROM product WHERE NOT hidden AND search_text LIKE \(pattern)" }
}
