import PostgresNIO

// The reads that browsing makes for every request the front desk cannot answer, prepared once per
// connection: parsing and planning them again each time was most of what the database did for a
// random product or a deep page. Reads whose best plan depends on their values (a search, a
// vendor's products) stay unprepared.

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
