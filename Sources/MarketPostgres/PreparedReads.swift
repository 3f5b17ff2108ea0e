import MarketModel
import PostgresNIO

// Browsing's reads are prepared once per connection: parsing and planning them each time would be most
// of the database's work for a product or a deep page. Reads whose best plan depends on their values
// stay unprepared, but for an API search's page, whose function's one plan fits any term (`MatchesFunction`).

struct CatalogueVersionQuery: PostgresPreparedStatement {
    typealias Row = Int64
    static let sql = "SELECT version FROM catalogue_version"

    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}

/// How many products on show hold a term of one to three characters, as `product_gram_count` keeps them.
struct GramCountQuery: PostgresPreparedStatement {
    typealias Row = Int64
    static let sql = "SELECT coalesce((SELECT count FROM product_gram_count WHERE gram = $1), 0)"

    var gram: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(gram)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}

/// How many products on show hold a term, how many are on show, and whether the words holding it are known
/// (`held_words`: at most 100, for a term of two characters and more in one word). A shorter term's count is kept
/// (`GramCountQuery`); a longer one's is counted among its words' products, not by reading every match's row, or NULL
/// when they are not known. With `countsSoldOut`, also how many are sold out, in the same pass; NULL otherwise.
struct HeldCountQuery: PostgresPreparedStatement {
    typealias Row = (found: Int64?, shown: Int64, held: Bool, soldOut: Int64?)
    static let sql = """
        SELECT CASE WHEN $1::text IS NOT NULL THEN coalesce(g.count, 0) WHEN h.held IS NOT NULL THEN w.found END,
            (SELECT count FROM product_total), h.held IS NOT NULL,
            CASE WHEN NOT $3 THEN NULL WHEN $1::text IS NOT NULL THEN coalesce(g.sold_out, 0)
                WHEN h.held IS NOT NULL THEN w.sold_out END
        FROM held_words($1, $2) AS h(held) LEFT JOIN product_gram_count g ON g.gram = $1
        CROSS JOIN LATERAL (
            SELECT count(DISTINCT c.product_id) AS found,
                count(DISTINCT c.product_id) FILTER (WHERE c.sold_out AND $3) AS sold_out
            FROM product_word c WHERE $1::text IS NULL AND c.word = ANY (h.held)) AS w
        """

    var search: SearchCondition
    var countsSoldOut: Bool

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        let (term, pattern) = search.heldWordsArguments
        bindings.append(term)
        bindings.append(pattern)
        bindings.append(countsSoldOut)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode((Int64?, Int64, Bool, Int64?).self) }
}

/// A statement whose rows are read as they come.
extension PostgresPreparedStatement where Row == PostgresRow {
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// Products with one of their images per row (or NULLs): see `ProductRow`.
private let productsWithImages = """
    SELECT \(PostgresMarketStore.productColumns), i.id, i.original_key, i.thumbnail_key, i.width, i.height,
        i.created_at
    FROM product p JOIN vendor v ON v.id = p.vendor_id LEFT JOIN product_image i ON i.product_id = p.id
    """

/// A product, a row per image in the images' order.
struct ProductQuery: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static let sql = productsWithImages + " WHERE p.id = $1 AND (NOT p.hidden OR NOT $2) ORDER BY i.position"

    var id: Int64
    var visibleOnly: Bool

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(id)
        bindings.append(visibleOnly)
        return bindings
    }
}

protocol ProductIDsQuery: PostgresPreparedStatement where Row == PostgresRow { var ids: [Int64] { get } }

extension ProductIDsQuery {
    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(ids)
        return bindings
    }
}

/// Those of several products on show, each one's rows together, in its images' order.
struct ShownProductsQuery: ProductIDsQuery {
    static let sql = productsWithImages + " WHERE p.id = ANY($1) AND NOT p.hidden ORDER BY p.id, i.position"

    var ids: [Int64]
}

/// Those of `ids` on show, as a list shows them (`ProductRow.summary()`), in any order: the rows of deep pages
/// (`VisibleProducts`). By their ids rather than between two, so the database keeps one plan for all pages.
struct ShownSummariesQuery: ProductIDsQuery {
    static let sql = """
        SELECT \(PostgresMarketStore.summaryColumns)
        FROM product p \(PostgresMarketStore.summaryJoins)
        WHERE p.id = ANY($1) AND NOT p.hidden
        """

    var ids: [Int64]
}

protocol MatchesOrder { static var newestFirst: Bool { get } }

enum NewestFirst: MatchesOrder { static let newestFirst = true }
enum OldestFirst: MatchesOrder { static let newestFirst = false }

/// A function of the schema's that gives the ids of a page of the products on show matching a
/// term: `(term, after, newest, limit, offset)`. PostgreSQL plans what it runs once a connection.
protocol MatchesFunction {
    /// The statement that joins the function's page to its rows, newest or oldest first.
    static var newestFirst: String { get }
    static var oldestFirst: String { get }
}

/// The page of those whose text is `LIKE` a pattern, each row ending with how many match: from the
/// products of the words that hold the term when few do, else through the trigram index (`found_page`).
enum CountedMatches: MatchesFunction {
    static let newestFirst = pageStatement("found_page", newest: true)
    static let oldestFirst = pageStatement("found_page", newest: false)
}

/// The page of those whose text holds a term of one to three characters, each row ending with how
/// many do: from the products of the words that hold it, by a walk from the newest (or oldest), or
/// through the index of every product's grams, whichever reads least (`short_page`).
enum ShortMatches: MatchesFunction {
    static let newestFirst = pageStatement("short_page", newest: true)
    static let oldestFirst = pageStatement("short_page", newest: false)
}

private func pageStatement(_ function: String, newest: Bool) -> String {
    """
    SELECT \(PostgresMarketStore.summaryColumns), page.matches
    FROM \(function)($1, $2, \(newest), $3, $4) AS page JOIN product p ON p.id = page.product_id
        \(PostgresMarketStore.summaryJoins)
    ORDER BY p.id \(newest ? "DESC" : "ASC")
    """
}

/// A page of the products on show that `Matches` finds for `term`, after an id (or from the start).
struct MatchesPageQuery<Matches: MatchesFunction, Order: MatchesOrder>: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static var sql: String { Order.newestFirst ? Matches.newestFirst : Matches.oldestFirst }
    /// The type's full name passes the 63 bytes PostgreSQL keeps of a name, making both orders' names the same.
    static var name: String { "\(Matches.self) \(Order.self)" }

    var term: String
    var page: PageRequest

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(term)
        bindings.append(page.after)
        bindings.append(page.itemsPerPage)
        bindings.append(page.offset)
        return bindings
    }
}

/// A 정확도순 page of those that hold a term, in its order, each row ending with how many do; no row
/// when a walk of the newest matches cannot tell it (`best_ranked`).
struct BestRankedQuery: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static let sql = """
        SELECT \(PostgresMarketStore.summaryColumns), page.matches
        FROM best_ranked($1, $2, $3, \(ProductArrangement.rankedMatches), $4, $5)
            WITH ORDINALITY AS page(product_id, matches, position)
            JOIN product p ON p.id = page.product_id \(PostgresMarketStore.summaryJoins)
        ORDER BY page.position
        """

    var search: SearchCondition
    var limit: Int
    var offset: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(search.term)
        bindings.append(search.pattern)
        bindings.append(ProductArrangement.wordSeparators)
        bindings.append(limit)
        bindings.append(offset)
        return bindings
    }
}
