import Foundation
import MarketCore
import MarketModel
import PostgresNIO

/// The market's vendors, products and image bytes in one PostgreSQL database, shared by every
/// server that is given its URL. Each method is one transaction; changes lock the product's row.
public final class PostgresMarketStore: MarketStore {
    let database: MarketDatabase
    private let watch: CatalogueWatch
    private let visible = VisibleProducts()
    /// The rows of deep pages, read together for every page asked for while the last read ran.
    private let pageRows: Batches<[Int64], [ProductSummary]>
    /// Products on show, read together for every one asked for while the last read ran.
    private let productRows: Batches<Int64, Product?>
    /// The catalogue's version while the watch cannot vouch for it, read once for all who ask at once.
    private let versionReads: Batches<Void, Int64>

    init(database: MarketDatabase, watch: CatalogueWatch) {
        self.database = database
        self.watch = watch
        pageRows = Batches { pages in
            let rows = try await database.read { session in
                try await session.rows(ShownSummariesQuery(ids: Array(Set(pages.joined()))))
            }
            let summaries = Dictionary(
                try rows.map { row in try ProductRow(row).summary() }.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            return pages.map { ids in ids.compactMap { summaries[$0] } }
        }
        productRows = Batches { ids in
            let products = try await database.read { session in
                // A lone product uses the statement for one: `ANY` of a one-element list is planned
                // anew each time, which costs more than the read itself.
                guard ids.count > 1 else { return [try await Self.product(id: ids[0], in: session, visibleOnly: true)] }
                return try Self.products(from: try await session.rows(ShownProductsQuery(ids: Array(Set(ids)))))
            }
            let byID = Dictionary(products.compactMap { $0 }.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            return ids.map { byID[$0] }
        }
        versionReads = Batches { asked in
            let version = try await database.read { session in try await session.single(CatalogueVersionQuery()) }
            return asked.map { version }
        }
    }

    public func checkReachable() async throws { try await database.checkWritable() }

    public func catalogueVersion() async throws -> Int64 {
        if let version = watch.version { return version }
        return try await versionReads.ask(())
    }

    /// Runs one statement, which commits on its own.
    func execute(_ query: PostgresQuery) async throws {
        try await database.read { session in try await session.execute(query) }
    }

    func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> T? {
        try await database.read { session in try await session.first(query, as: T.self) }
    }

    /// Every row of one query, decoded as the tuple `columns`.
    func all<each Column: PostgresDecodable>(
        _ query: PostgresQuery, as columns: (repeat each Column).Type
    ) async throws -> [(repeat each Column)] {
        try await database.read { session in try await session.rows(query) }.map { try $0.decode(columns) }
    }

    // MARK: Vendors

    public func insertVendor(_ vendor: NewVendor) async throws -> Vendor {
        do {
            let (id, seat) = try await database.transaction { session in
                let seat = vendor.isTeam ? try await Self.nextTeamSeat(in: session) : nil
                let id = try await session.single(
                    """
                    INSERT INTO vendor (id, identifier, name, secret_hash, created_at, team, team_seat)
                    VALUES (coalesce(\(vendor.id), nextval(pg_get_serial_sequence('vendor', 'id'))),
                        \(vendor.identifier), \(vendor.name), \(vendor.secretHash), \(vendor.createdAt), \(seat != nil),
                        \(seat))
                    RETURNING id
                    """, as: Int64.self)
                if vendor.id != nil {
                    // A chosen id must never be handed out again by the sequence.
                    try await session.execute(
                        """
                        SELECT setval(pg_get_serial_sequence('vendor', 'id'),
                            greatest((SELECT max(id) FROM vendor), nextval(pg_get_serial_sequence('vendor', 'id')) - 1))
                        """)
                }
                return (id, seat)
            }
            return Vendor(
                id: id, identifier: vendor.identifier, name: vendor.name, createdAt: vendor.createdAt, teamSeat: seat)
        } catch let error as PSQLError
            where error.serverInfo?[.sqlState] == "23505" && error.serverInfo?[.constraintName] == "vendor_pkey"
        {
            throw MarketError(.conflict, field: .sent("vendor-id"), .vendorIDTaken(vendor.id ?? 0))
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw MarketError(.conflict, field: .identifier, .vendorIdentifierTaken(vendor.identifier))
        }
    }

    public func vendorCredentials(identifier: String) async throws -> StoredVendor? {
        try await storedVendors(identifier: identifier).first
    }

    public func allVendors() async throws -> [Vendor] { try await storedVendors().map(\.vendor) }

    public func markTeam(vendorID: Int64) async throws -> Int {
        try await database.transaction { session in
            if let seat = try await session.first(
                "SELECT team_seat FROM vendor WHERE id = \(vendorID) AND team_seat IS NOT NULL", as: Int.self)
            {
                return seat
            }
            let seat = try await Self.nextTeamSeat(in: session)
            try await session.execute("UPDATE vendor SET team = true, team_seat = \(seat) WHERE id = \(vendorID)")
            return seat
        }
    }

    public func team(inSeat seat: Int) async throws -> Vendor? {
        try await all(
            "SELECT \(unescaped: Self.vendorColumns) FROM vendor v WHERE v.team_seat = \(seat)", as: Self.VendorRow.self
        ).first.map(Self.vendor)
    }

    /// The seat after the last team's, with every other server's seating held off until this transaction ends.
    private static func nextTeamSeat(in session: DatabaseSession) async throws -> Int {
        try await session.execute("SELECT pg_advisory_xact_lock(\(teamSeatingLock))")
        return try await session.single("SELECT coalesce(max(team_seat), 0) + 1 FROM vendor", as: Int.self)
    }

    /// Any number of its own: only team seating takes it.
    private static let teamSeatingLock: Int64 = 0x7465_616d_7365_6174

    /// A vendor's columns, as `vendor(_:)` reads them.
    static let vendorColumns = "v.id, v.identifier, v.name, v.created_at, v.team_seat"
    typealias VendorRow = (Int64, String, String, Date, Int?)

    static func vendor(_ row: VendorRow) -> Vendor {
        Vendor(id: row.0, identifier: row.1, name: row.2, createdAt: row.3, teamSeat: row.4)
    }

    /// Every vendor in id order, or only the one with `identifier`.
    func storedVendors(identifier: String? = nil) async throws -> [StoredVendor] {
        let select = "SELECT \(Self.vendorColumns), v.secret_hash FROM vendor v"
        let query: PostgresQuery =
            if let identifier {
                "\(unescaped: select) WHERE v.identifier = \(identifier)"
            } else {
                "\(unescaped: select) ORDER BY v.id"
            }
        return try await all(query, as: (Int64, String, String, Date, Int?, String).self).map {
            StoredVendor(vendor: Self.vendor(($0, $1, $2, $3, $4)), secretHash: $5)
        }
    }

    // MARK: Products

    public func insertProduct(_ new: NewProduct) async throws -> Product {
        try await database.transaction { session in
            let draft = new.draft
            let searchText = NewProduct.searchText(name: draft.name, description: draft.description)
            let id = try await session.single(
                """
                INSERT INTO product (vendor_id, name, description, currency, price, discount, stock,
                    zero_sale_price_sent, search_text, password_hash, created_at, updated_at)
                VALUES (\(new.vendorID), \(draft.name), \(draft.description), \(draft.currency.rawValue),
                    \(draft.price), \(draft.discount), \(draft.stock), \(draft.zeroSalePriceSent), \(searchText),
                    \(new.passwordHash), \(new.createdAt), \(new.createdAt))
                RETURNING id
                """, as: Int64.self)
            try await Self.insertImages(new.images, of: id, at: new.createdAt, in: session)
            return try await Self.product(id: id, in: session)!
        }
    }

    /// A product on show is read with every other one asked for meanwhile: under load, one query answers a batch.
    public func product(id: Int64, includingHidden: Bool) async throws -> Product? {
        guard includingHidden else { return try await productRows.ask(id) }
        return try await database.read { session in try await Self.product(id: id, in: session) }
    }

    public func products(
        _ page: PageRequest, matching search: String?, arranged arrangement: ProductArrangement
    ) async throws -> Page<ProductSummary> {
        guard arrangement == .asListed else { return try await arrangedProducts(page, matching: search, arrangement) }
        if search == nil, page.after == nil, page.offset >= VisibleProducts.deepOffset {
            return try await deepPage(page)
        }
        return try await database.read { session in
            guard let search = search.map(SearchCondition.init) else {
                let total = try await session.single("SELECT count FROM product_total", as: Int64.self)
                let items = try await Self.summaries(session, page, vendorID: nil)
                return Page(request: page, totalCount: Int(total), items: items)
            }
            // The page and its count from one function of the schema's, planned once: a long term is counted
            // by finding every match, so the page comes from those same matches rather than a second search.
            let rows =
                if let gram = search.gram {
                    try await Self.matchesPage(ShortMatches.self, session, page, term: gram)
                } else {
                    try await Self.matchesPage(CountedMatches.self, session, page, term: search.pattern)
                }
            let (items, found) = try Self.counted(rows)
            let total = try await Self.total(found, firstPage: page.offset == 0 && page.after == nil) {
                if let gram = search.gram { return try await session.rows(GramCountQuery(gram: gram)).first ?? 0 }
                return try await session.first(search.count, as: Int64.self) ?? 0
            }
            return Page(request: page, totalCount: Int(total), items: items)
        }
    }

    /// 정확도순 first looks for a page of whole words in names (`BestRankedQuery`). A long term its words do not
    /// count is counted only by finding every match, so its page is taken from those, counted in the same statement.
    private func arrangedProducts(
        _ page: PageRequest, matching search: String?, _ arrangement: ProductArrangement
    ) async throws -> Page<ProductSummary> {
        let unfiltered = arrangement.prices == nil && arrangement.showsSoldOut
        let offset = arrangement.isByAge && page.after != nil ? 0 : page.offset
        let condition = search.map(SearchCondition.init)
        return try await database.read { session in
            if arrangement.order == .relevance, unfiltered, let condition {
                let best = try await session.rows(
                    BestRankedQuery(search: condition, limit: page.itemsPerPage, offset: offset))
                let (items, total) = try Self.counted(best)
                if let total { return Page(request: page, totalCount: Int(total), items: items) }
            }
            // How many the search finds and how many are on show, unless that means finding them all;
            // whether the words that hold the term are known; and, for a list of what is in stock
            // that only the search narrows, how many it leaves out, when these are known too.
            var counts: (found: Int64, shown: Int64)?
            var held = false
            var soldOut: Int64?
            if let condition {
                let countsSoldOut = arrangement.prices == nil && !arrangement.showsSoldOut
                let row =
                    try await session.rows(HeldCountQuery(search: condition, countsSoldOut: countsSoldOut)).first
                    ?? (0, 0, false, nil)
                (counts, held, soldOut) = (row.found.map { ($0, row.shown) }, row.held, row.soldOut)
            } else {
                counts =
                    try await session.query("SELECT count, count FROM product_total").decode((Int64, Int64).self)
                    .first { _ in true } ?? (0, 0)
            }
            let dense = counts.map { ProductArrangement.isDense(found: $0.found, shown: $0.shown) } ?? false
            let walksPrices =
                held
                && counts.map {
                    arrangement.walksPrices(
                        found: Int($0.found), shown: Int($0.shown), reach: offset + page.itemsPerPage)
                } ?? false
            let query = ArrangedQuery(
                arrangement, term: search, dense: dense, walksPrices: walksPrices, after: page.after)
            if query.matchesFirst {
                let (items, counted) = try Self.counted(
                    await session.rows(query.page(limit: page.itemsPerPage, offset: offset, rankedFrom: nil)))
                let total = try await Self.total(counted, firstPage: offset == 0 && page.after == nil) {
                    try await session.single(query.count, as: Int64.self)
                }
                return Page(request: page, totalCount: Int(total), items: items)
            }
            // Without filters, the list holds what the search finds: the totals kept say how many.
            let total =
                if let found = counts?.found, let soldOut {
                    found - soldOut
                } else if let found = counts?.found, arrangement.prices == nil, let soldOut = query.soldOutCount {
                    found - (try await session.single(soldOut, as: Int64.self))
                } else if let found = counts?.found, unfiltered {
                    found
                } else {
                    try await session.single(query.count, as: Int64.self)
                }
            var rankedFrom: Int64?
            if let ranked = query.rankedFrom, total > ProductArrangement.rankedMatches {
                rankedFrom = try await session.first(ranked, as: Int64.self)
            }
            let rows = try await session.rows(
                query.page(limit: page.itemsPerPage, offset: offset, rankedFrom: rankedFrom))
            return Page(request: page, totalCount: Int(total), items: try rows.map { try ProductRow($0).summary() })
        }
    }

    public func products(_ page: PageRequest, ofVendor vendorID: Int64) async throws -> Page<ProductSummary> {
        try await database.read { session in
            let total = try await session.single(
                "SELECT count(*) FROM product WHERE vendor_id = \(vendorID) AND NOT hidden", as: Int64.self)
            let items = try await Self.summaries(
                session, PageRequest(number: page.number, itemsPerPage: page.itemsPerPage), vendorID: vendorID)
            return Page(request: page, totalCount: Int(total), items: items)
        }
    }

    /// A page deep in the catalogue: its ids from those on show (`VisibleProducts`), its rows read
    /// with those of the other deep pages asked for meanwhile.
    private func deepPage(_ page: PageRequest) async throws -> Page<ProductSummary> {
        let (visible, version) = (visible, watch.version)
        let shown: [Int64] =
            if let kept = version.flatMap(visible.cached(at:)) {
                kept
            } else {
                try await database.read { session in
                    let current = if let version { version } else { try await session.single(CatalogueVersionQuery()) }
                    return try await visible.ids(at: current) {
                        try await session.all("SELECT id FROM product WHERE NOT hidden ORDER BY id", as: Int64.self)
                    }
                }
            }
        let (ids, total) = VisibleProducts.page(
            of: shown, offset: page.offset, limit: page.itemsPerPage, newestFirst: page.order == .newestFirst)
        guard !ids.isEmpty else { return Page(request: page, totalCount: total, items: []) }
        return Page(request: page, totalCount: total, items: try await pageRows.ask(ids))
    }

    /// A page of products on show, of `vendorID` if given: its ids from an index alone, only those rows joined.
    private static func summaries(
        _ session: DatabaseSession, _ page: PageRequest, vendorID: Int64?
    ) async throws -> [ProductSummary] {
        let direction = page.order == .newestFirst ? "DESC" : "ASC"
        return try await session.rows(
            """
            WITH page AS (
                SELECT id FROM product WHERE NOT hidden
                    AND (\(vendorID)::bigint IS NULL OR vendor_id = \(vendorID))
                    AND (\(page.after)::bigint IS NULL OR id \(unescaped: page.order == .newestFirst ? "<" : ">") \(page.after))
                ORDER BY id \(unescaped: direction) LIMIT \(page.itemsPerPage) OFFSET \(page.offset))
            SELECT \(unescaped: summaryColumns)
            FROM page JOIN product p ON p.id = page.id \(unescaped: summaryJoins)
            ORDER BY p.id \(unescaped: direction)
            """
        ).map { try ProductRow($0).summary() }
    }

    private static func matchesPage<Matches: MatchesFunction>(
        _ matches: Matches.Type, _ session: DatabaseSession, _ page: PageRequest, term: String
    ) async throws -> [PostgresRow] {
        page.order == .newestFirst
            ? try await session.rows(MatchesPageQuery<Matches, NewestFirst>(term: term, page: page))
            : try await session.rows(MatchesPageQuery<Matches, OldestFirst>(term: term, page: page))
    }

    /// The total a page counted; for an empty page, none when it is the first, otherwise `count()`.
    private static func total(
        _ counted: Int64?, firstPage: Bool, otherwise count: () async throws -> Int64
    ) async throws -> Int64 {
        if let counted { return counted }
        return firstPage ? 0 : try await count()
    }

    /// Summaries from rows that each end with how many the list holds, and that count (nil when there is no row).
    private static func counted(_ rows: [PostgresRow]) throws -> (items: [ProductSummary], total: Int64?) {
        let products = rows.map(ProductRow.init)
        let total = try products.last.map { try $0.cells[$0.cells.count - 1].decode(Int64.self) }
        return (try products.map { try $0.summary() }, total)
    }

    public func ownership(of productID: Int64) async throws -> ProductOwnership? {
        try await all(
            """
            SELECT v.identifier, v.secret_hash, p.password_hash, p.hidden
            FROM product p JOIN vendor v ON v.id = p.vendor_id WHERE p.id = \(productID)
            """, as: (String, String, String?, Bool).self
        ).first.map { ProductOwnership(vendorIdentifier: $0, vendorSecretHash: $1, passwordHash: $2, hidden: $3) }
    }

    public func updateProduct(
        id: Int64, replacingImages images: [NewProductImage]?, _ change: @escaping @Sendable (Product) throws -> Product
    ) async throws -> (before: Product, after: Product)? {
        try await database.transaction { session -> (before: Product, after: Product)? in
            guard let product = try await Self.lockedProduct(id: id, in: session) else { return nil }
            let changed = try change(product)
            guard changed != product || images != nil else { return (product, product) }
            let searchText = NewProduct.searchText(name: changed.name, description: changed.description)
            try await session.execute(
                """
                UPDATE product SET name = \(changed.name), description = \(changed.description),
                    currency = \(changed.currency.rawValue), price = \(changed.price),
                    discount = \(changed.discount), stock = \(changed.stock),
                    zero_sale_price_sent = \(changed.zeroSalePriceSent),
                    cover_image_id = \(changed.coverImageID), search_text = \(searchText),
                    updated_at = \(changed.updatedAt)
                WHERE id = \(id)
                """)
            if let images {
                try await session.execute("DELETE FROM product_image WHERE product_id = \(id)")
                try await Self.insertImages(images, of: id, at: changed.updatedAt, in: session)
            }
            return (product, try await Self.product(id: id, in: session)!)
        }
    }

    public func deleteProduct(id: Int64) async throws -> Product? {
        try await database.transaction { session -> Product? in
            guard let product = try await Self.lockedProduct(id: id, in: session) else { return nil }
            try await session.execute("DELETE FROM product WHERE id = \(id)")
            return product
        }
    }

    public func insertDeleteToken(hash: String, productID: Int64, issuedAt: Date) async throws {
        try await execute(
            "INSERT INTO delete_token (token_hash, product_id, issued_at) VALUES (\(hash), \(productID), \(issuedAt))")
    }

    public func productID(forDeleteToken hash: String) async throws -> Int64? {
        try await first("SELECT product_id FROM delete_token WHERE token_hash = \(hash)", as: Int64.self)
    }

    public func referencedImageKeys(among keys: [String]) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return try await database.read { session in
            Set(
                try await session.all(
                    """
                    SELECT original_key FROM product_image WHERE original_key = ANY(\(keys))
                    UNION SELECT thumbnail_key FROM product_image WHERE thumbnail_key = ANY(\(keys))
                    """, as: String.self))
        }
    }

    // MARK: Rows to values

    static let productColumns = """
        p.id, p.vendor_id, v.name, v.created_at, p.name, p.description, p.currency, p.price, p.discount, p.stock,
        p.cover_image_id, p.created_at, p.updated_at, p.zero_sale_price_sent
        """
    /// A list's columns (`ProductRow.summary()`) of products `p`, with `summaryJoins`.
    static let summaryColumns = """
        \(productColumns), cover.thumbnail_key,
            ARRAY(SELECT thumbnail_key FROM product_image WHERE product_id = p.id ORDER BY position)
        """
    static let summaryJoins = """
        JOIN vendor v ON v.id = p.vendor_id LEFT JOIN product_image cover ON cover.id = p.cover_image_id
        """

    /// The product, with its row locked until the transaction ends.
    static func lockedProduct(id: Int64, in session: DatabaseSession) async throws -> Product? {
        try await session.execute("SELECT 1 FROM product WHERE id = \(id) FOR UPDATE")
        return try await product(id: id, in: session)
    }

    /// The product with this id; with `visibleOnly`, nil when it is hidden. One query: a row per
    /// image (or one without), each with the product's columns, in the images' order.
    static func product(id: Int64, in session: DatabaseSession, visibleOnly: Bool = false) async throws -> Product? {
        try products(from: try await session.rows(ProductQuery(id: id, visibleOnly: visibleOnly))).first
    }

    /// Products from rows of their columns and one image each (or NULLs), each product's rows together.
    private static func products(from rows: [PostgresRow]) throws -> [Product] {
        var products: [Product] = []
        for row in rows {
            let cells = ProductRow(row)
            let (id, image) = try (cells.id(), cells.image())
            if products.last?.id == id {
                if let image { products[products.count - 1].images.append(image) }
            } else {
                products.append(try cells.product(images: image.map { [$0] } ?? []))
            }
        }
        return products
    }

    /// Adds image rows in order and makes the first one the cover.
    static func insertImages(
        _ images: [NewProductImage], of productID: Int64, at date: Date, in session: DatabaseSession
    ) async throws {
        var coverID: Int64?
        for (position, image) in images.enumerated() {
            let id = try await session.single(
                """
                INSERT INTO product_image (product_id, position, original_key, thumbnail_key, width, height, created_at)
                VALUES (\(productID), \(position), \(image.originalKey), \(image.thumbnailKey), \(image.width),
                    \(image.height), \(date))
                RETURNING id
                """, as: Int64.self)
            coverID = coverID ?? id
        }
        try await session.execute("UPDATE product SET cover_image_id = \(coverID) WHERE id = \(productID)")
    }
}
