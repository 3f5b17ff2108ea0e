/// How a list finds its products: all of them, through the trigram index, or (for terms shorter
/// than a trigram) by reading every row's search text.
enum SearchFilter {
    case everything
    case indexed(phrase: String)
    case scanned(term: String)

    init(_ search: String?) {
        guard let search else {
            self = .everything
            return
        }
        // An FTS5 phrase in double quotes matches the text as a substring; quotes inside double.
        self =
            search.count >= 3
            ? .indexed(phrase: "\"" + search.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            : .scanned(term: search)
    }

    var argument: String? {
        switch self {
        case .everything: nil
        case .indexed(let phrase): phrase
        case .scanned(let term): term
        }
    }

    var countSQL: String {
        switch self {
        case .everything: "SELECT count FROM productTotal"
        case .indexed: "SELECT count(*) FROM productSearch WHERE productSearch MATCH :search"
        case .scanned: "SELECT count(*) FROM product WHERE instr(searchText, :search) > 0"
        }
    }

    /// Newest first; the caller adds LIMIT and OFFSET.
    var idsSQL: String {
        switch self {
        case .everything: "SELECT id FROM product ORDER BY id DESC"
        case .indexed: "SELECT rowid AS id FROM productSearch WHERE productSearch MATCH :search ORDER BY rowid DESC"
        case .scanned: "SELECT id FROM product WHERE instr(searchText, :search) > 0 ORDER BY id DESC"
        }
    }
}
