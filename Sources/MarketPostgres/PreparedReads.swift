import PostgresNIO

// The reads that browsing makes for every request the front desk cannot answer, prepared once per
// connection: parsing and planning them again each time was most of what the database did for a
// random product or a deep page. Reads whose best plan depends on their values (a search, a
// vendor's products) stay unprepared, but for a long term's API search, which PostgreSQL still
// plans for each pattern but no longer parses each time.

/// The catalogue's version; see `MarketStore.catalogueVersion()`.
struct CatalogueVersionQuery: PostgresPreparedStatement {
    typealias Row = Int64
    static let sql = "SELECT version FROM catalogue_version"

    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
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

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// A statement about several products, named by their ids, whose rows are read as they come.
protocol ProductIDsQuery: PostgresPreparedStatement where Row == PostgresRow {
    var ids: [Int64] { get }
}

extension ProductIDsQuery {
    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(ids)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// Those of several products on show, each one's rows together, in its images' order.
struct ShownProductsQuery: ProductIDsQuery {
    typealias Row = PostgresRow
    static let sql = productsWithImages + " WHERE p.id = ANY($1) AND NOT p.hidden ORDER BY p.id, i.position"

    var ids: [Int64]
}

/// Those of `ids` on show, as a list shows them (`ProductRow.summary()`), in any order: the rows
/// of deep pages (`VisibleProducts`). By their ids rather than between two: the database then
/// keeps one plan for every page instead of planning each one anew.
struct ShownSummariesQuery: ProductIDsQuery {
    typealias Row = PostgresRow
    static let sql = """
        SELECT \(PostgresMarketStore.summaryColumns)
        FROM product p \(PostgresMarketStore.summaryJoins)
        WHERE p.id = ANY($1) AND NOT p.hidden
        """

    var ids: [Int64]
}

/// Which end of the list a page of matches starts from.
protocol MatchesOrder {
    static var newestFirst: Bool { get }
}

enum NewestFirst: MatchesOrder { static let newestFirst = true }
enum OldestFirst: MatchesOrder { static let newestFirst = false }

/// A page of the products on show whose text is `LIKE` a pattern, after an id (or from the
/// start), each row ending with how many match: `PostgresMarketStore.summariesCounted`. Prepared,
/// a search no longer parses the statement: at 100,000 products, by turns with it unprepared, six
/// runs each, 1,130–1,500 searches a second against 1,030–1,400, and 8 % less of PostgreSQL's
/// time a search. The matches come from `matched_page` (migration 17), which PostgreSQL plans
/// once a connection rather than for each pattern.
struct CountedMatchesQuery<Order: MatchesOrder>: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static var sql: String { Order.newestFirst ? newestCountedMatches : oldestCountedMatches }

    var pattern: String
    var after: Int64?
    var limit: Int
    var offset: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(pattern)
        bindings.append(after)
        bindings.append(limit)
        bindings.append(offset)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

private let newestCountedMatches = countedMatches(newest: true)
private let oldestCountedMatches = countedMatches(newest: false)

private func countedMatches(newest: Bool) -> String {
    """
    SELECT \(PostgresMarketStore.summaryColumns), page.matches
    FROM matched_page($1, $2, \(newest), $3, $4) AS page JOIN product p ON p.id = page.product_id
        \(PostgresMarketStore.summaryJoins)
    ORDER BY p.id \(newest ? "DESC" : "ASC")
    """
}
