import CSQLiteSettings
import Foundation
import GRDB
import MarketCore
import MarketModel
import Synchronization

/// The market's vendors and products in one SQLite file, in WAL mode so that readers never wait for the writer.
public final class SQLiteMarketStore: MarketStore {
    /// How soon another process's change to the file (the `openmarket` command beside a running server)
    /// shows in `catalogueVersion()`; a read transaction each time would cost more than the rest of a kept answer.
    public static let othersSeenWithin: Duration = .milliseconds(100)

    let pool: DatabasePool
    private let visible = VisibleProducts()
    /// The newest version known, and when the last read of it from the file began (nil: never).
    private let known = Mutex<(version: Int64, readAt: ContinuousClock.Instant?)>((0, nil))
    /// The version read once for everyone who asks while it is due.
    private let versionReads: Batches<Void, Int64>
    /// Products on show, read together for all asked for while the last read ran: handing a read to a GRDB reader
    /// costs more than reading one product. Each is one statement, consistent by itself: no transaction wraps them.
    private let productReads: Batches<Int64, Product?>

    /// Opens (creating and migrating when needed) the database at `path`.
    public init(path: String) throws {
        _ = Self.memoryUncounted
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Reads go through memory mapped from the file rather than a system call per page missing from
        // SQLite's small cache; SQLite caps `mmap_size` at its build's maximum.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1099511627776") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try SQLiteSchema.migrator.migrate(pool)
        self.pool = pool
        versionReads = Batches { asked in
            let version = try await pool.read(Self.catalogueVersion)
            return asked.map { version }
        }
        productReads = Batches { ids in
            try await MarketTimers.databaseReads.measure {
                try await pool.unsafeRead { db in try ids.map { try Self.product(id: $0, in: db, visibleOnly: true) } }
            }
        }
    }

    /// SQLite stops counting memory before the first store opens: counting takes a process-wide lock per allocation.
    private static let memoryUncounted: Void = { _ = market_sqlite_stop_counting_memory() }()

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await MarketTimers.databaseReads.measure { try await pool.read(body) }
    }

    /// Writes in one transaction through the pool, timed. The version the transaction committed
    /// is known at once, so that the next read through this store sees the change.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let (result, version) = try await MarketTimers.databaseWrites.measure {
            try await pool.write { db in (try body(db), try Self.catalogueVersion(db)) }
        }
        learn(version, readAt: nil)
        return result
    }

    /// Runs one statement in a write transaction of its own.
    func execute(_ sql: String, _ arguments: StatementArguments = []) async throws {
        try await write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    func value<T: DatabaseValueConvertible & StatementColumnConvertible & Sendable>(
        _ sql: String, _ arguments: StatementArguments = []
    ) async throws -> T? {
        try await read { db in try T.fetchOne(db, sql: sql, arguments: arguments) }
    }

    func row<T: Sendable>(
        _ sql: String, _ arguments: StatementArguments = [], _ transform: @escaping @Sendable (Row) throws -> T
    ) async throws -> T? {
        try await read { db in try Row.fetchOne(db, sql: sql, arguments: arguments).map(transform) }
    }

    func rows<T: Sendable>(
        _ sql: String, _ arguments: StatementArguments = [], _ transform: @escaping @Sendable (Row) throws -> T
    ) async throws -> [T] {
        try await read { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map(transform) }
    }

    public func checkReachable() async throws { _ = try await read { db in try Int.fetchOne(db, sql: "SELECT 1") } }

    /// The version this store's writes committed, or read from the file within
    /// `othersSeenWithin`, so that what another process committed is seen too.
    public func catalogueVersion() async throws -> Int64 {
        let asked = ContinuousClock.now
        let fresh = known.withLock { known in
            known.readAt.map { asked - $0 < Self.othersSeenWithin } == true ? known.version : nil
        }
        if let fresh { return fresh }
        let version = try await versionReads.ask(())
        learn(version, readAt: asked)
        return version
    }

    /// Keeps the newer of `version` and the one known; `readAt` is when a read of the file began.
    private func learn(_ version: Int64, readAt: ContinuousClock.Instant?) {
        known.withLock { known in
            known.version = max(known.version, version)
            if let readAt { known.readAt = max(known.readAt ?? readAt, readAt) }
        }
    }

    static func catalogueVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT version FROM catalogueVersion")) ?? 0
    }

    // MARK: Vendors

    public func insertVendor(_ vendor: NewVendor) async throws -> Vendor {
        do {
            return try await write { db in
                let seat = vendor.isTeam ? try Self.nextTeamSeat(in: db) : nil
                try db.execute(
                    sql: Self.vendorInsert,
                    arguments: [
                        vendor.id, vendor.identifier, vendor.name, vendor.secretHash, vendor.createdAt, seat != nil,
                        seat,
                    ])
                return Vendor(
                    id: db.lastInsertedRowID, identifier: vendor.identifier, name: vendor.name,
                    createdAt: vendor.createdAt, teamSeat: seat)
            }
        } catch DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY {
            throw MarketError(.conflict, field: .sent("vendor-id"), .vendorIDTaken(vendor.id ?? 0))
        } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
            throw MarketError(.conflict, field: .identifier, .vendorIdentifierTaken(vendor.identifier))
        }
    }

    /// A nil id lets SQLite choose the next one; an import gives every id.
    static let vendorInsert =
        "INSERT INTO vendor (id, identifier, name, secretHash, createdAt, team, teamSeat) VALUES (?, ?, ?, ?, ?, ?, ?)"

    /// The seat after the last team's; one writer at a time, so no two teams get it.
    private static func nextTeamSeat(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT coalesce(max(teamSeat), 0) + 1 FROM vendor") ?? 1
    }

    public func vendorCredentials(identifier: String) async throws -> StoredVendor? {
        try await row("SELECT * FROM vendor WHERE identifier = ?", [identifier]) { Self.storedVendor(from: $0) }
    }

    public func allVendors() async throws -> [Vendor] {
        try await rows("SELECT * FROM vendor ORDER BY id") { Self.vendor(from: $0) }
    }

    public func markTeam(vendorID: Int64) async throws -> Int {
        try await write { db in
            if let seat = try Int.fetchOne(db, sql: "SELECT teamSeat FROM vendor WHERE id = ?", arguments: [vendorID]) {
                return seat
            }
            let seat = try Self.nextTeamSeat(in: db)
            try db.execute(sql: "UPDATE vendor SET team = 1, teamSeat = ? WHERE id = ?", arguments: [seat, vendorID])
            return seat
        }
    }

    public func team(inSeat seat: Int) async throws -> Vendor? {
        try await row("SELECT * FROM vendor WHERE teamSeat = ?", [seat]) { Self.vendor(from: $0) }
    }

    // MARK: Products

    public func insertProduct(_ new: NewProduct) async throws -> Product {
        try await write { db in
            let productID = try Self.insertProductRow(
                vendorID: new.vendorID, new.draft, passwordHash: new.passwordHash, createdAt: new.createdAt,
                updatedAt: new.createdAt, in: db)
            try Self.insertImages(new.images, of: productID, at: new.createdAt, in: db)
            return try Self.product(id: productID, in: db)!
        }
    }

    /// Adds a product's row without images and returns its id: `id` when given (an import keeps its ids), or the
    /// next free one.
    @discardableResult
    static func insertProductRow(
        id: Int64? = nil, vendorID: Int64, _ facts: ProductDraft, passwordHash: String?, createdAt: Date,
        updatedAt: Date, in db: Database
    ) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO product (id, vendorId, name, description, currency, price, discount, stock,
                    zeroSalePriceSent, searchText, passwordHash, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                id, vendorID, facts.name, facts.description, facts.currency.rawValue, facts.price, facts.discount,
                facts.stock, facts.zeroSalePriceSent,
                NewProduct.searchText(name: facts.name, description: facts.description),
                passwordHash, createdAt, updatedAt,
            ])
        return db.lastInsertedRowID
    }

    /// A product on show is read with every other one asked for meanwhile, one statement each.
    public func product(id: Int64, includingHidden: Bool) async throws -> Product? {
        guard includingHidden else { return try await productReads.ask(id) }
        return try await pool.read { db in try Self.product(id: id, in: db) }
    }

    public func products(
        _ page: PageRequest, matching search: String?, arranged arrangement: ProductArrangement
    ) async throws -> Page<ProductSummary> {
        let visible = visible
        return try await read { db in
            arrangement == .asListed
                ? try Self.products(page, matching: search, in: db, visible: visible)
                : try Self.arrangedProducts(page, matching: search, arrangement, in: db)
        }
    }

    private static func arrangedProducts(
        _ page: PageRequest, matching search: String?, _ arrangement: ProductArrangement, in db: Database
    ) throws -> Page<ProductSummary> {
        let filter = SearchFilter(search, order: .newestFirst)
        let shown = try Int.fetchOne(db.cachedStatement(sql: "SELECT count FROM productTotal")) ?? 0
        let found =
            search == nil
            ? shown
            : try Int.fetchOne(db.cachedStatement(sql: filter.countSQL), arguments: ["search": filter.argument]) ?? 0
        let offset = arrangement.isByAge && page.after != nil ? 0 : page.offset
        let list = ArrangedList(
            arrangement, term: search, filter: filter, found: found, shown: shown, reach: offset + page.itemsPerPage,
            after: page.after)
        let count = { (sql: String) in try Int.fetchOne(db.cachedStatement(sql: sql), arguments: list.arguments) ?? 0 }
        let total =
            if let prices = arrangement.prices {
                search == nil
                    ? try PriceCounts.total(in: prices, inStockOnly: !arrangement.showsSoldOut, db)
                    : try count("SELECT count(*) FROM product p WHERE \(list.whereClause)")
            } else if arrangement.showsSoldOut {
                found
            } else {
                found - (try filter.soldOutCountSQL.map(count) ?? PriceCounts.soldOut(db))
            }
        var arguments = list.arguments + ["limit": page.itemsPerPage, "offset": offset]
        if let best = try bestRanked(list, reach: offset + page.itemsPerPage, db) {
            arguments += ["best": "[\(best.map(String.init).joined(separator: ","))]"]
            return try summaryPage(
                page, total: total, db, ids: "SELECT value AS id FROM json_each(:best)", order: list.order,
                arguments: arguments)
        }
        let rankedFrom =
            list.ranks && total > ProductArrangement.rankedMatches
            ? try Int64.fetchOne(db.cachedStatement(sql: list.rankedFromSQL), arguments: list.arguments) : nil
        if let rankedFrom {
            let older = max(offset + page.itemsPerPage - ProductArrangement.rankedMatches, 0)
            _ = arguments.append(contentsOf: ["rankedFrom": rankedFrom, "older": older])
        }
        return try summaryPage(
            page, total: total, db, ids: list.ids(rankingAll: rankedFrom == nil), order: list.order,
            arguments: arguments)
    }

    /// The ids of a 정확도순 page's reach, newest first, when that many of the ranked products hold
    /// the term as a whole word in their name: those come first (`ArrangedList.bestRanked`).
    private static func bestRanked(_ list: ArrangedList, reach: Int, _ db: Database) throws -> [Int64]? {
        guard let best = list.bestRanked else { return nil }
        let ids = try Int64.fetchAll(
            db.cachedStatement(sql: best.walk + " LIMIT :reach"), arguments: list.arguments + ["reach": reach])
        guard ids.count == reach, let last = ids.last else { return nil }
        let held = try Int.fetchOne(
            db.cachedStatement(sql: best.heldFromLast), arguments: list.arguments + ["last": last])
        return (held ?? 0) <= ProductArrangement.rankedMatches ? ids : nil
    }

    private static func products(
        _ page: PageRequest, matching search: String?, in db: Database, visible: VisibleProducts
    ) throws -> Page<ProductSummary> {
        let filter = SearchFilter(search, order: page.order, after: page.after)
        if case .everything = filter.source, page.after == nil, page.offset >= VisibleProducts.deepOffset {
            let visibleIDs = try visible.ids(at: catalogueVersion(db)) {
                try Int64.fetchAll(db, sql: "SELECT id FROM product WHERE hidden = 0 ORDER BY id")
            }
            let (onPage, total) = VisibleProducts.page(
                of: visibleIDs, offset: page.offset, limit: page.itemsPerPage, newestFirst: page.order == .newestFirst)
            guard let low = onPage.min(), let high = onPage.max() else {
                return Page(request: page, totalCount: total, items: [])
            }
            let arguments: StatementArguments = ["low": low, "high": high, "limit": page.itemsPerPage, "offset": 0]
            let ids =
                "SELECT id FROM product WHERE hidden = 0 AND id BETWEEN :low AND :high ORDER BY id \(filter.direction)"
            return try summaryPage(
                page, total: total, db, ids: ids, order: "p.id \(filter.direction)", arguments: arguments)
        }
        var arguments: StatementArguments = [
            "search": filter.argument, "limit": page.itemsPerPage, "offset": page.offset,
        ]
        if let after = page.after { arguments += ["after": after] }
        let total = try Int.fetchOne(db.cachedStatement(sql: filter.countSQL), arguments: arguments) ?? 0
        return try summaryPage(
            page, total: total, db, ids: filter.idsSQL, order: "p.id \(filter.direction)", arguments: arguments)
    }

    public func products(_ page: PageRequest, ofVendor vendorID: Int64) async throws -> Page<ProductSummary> {
        try await read { db in
            let arguments: StatementArguments = ["vendor": vendorID, "limit": page.itemsPerPage, "offset": page.offset]
            let visible = "FROM product WHERE vendorId = :vendor AND hidden = 0"
            let total = try Int.fetchOne(db, sql: "SELECT count(*) \(visible)", arguments: arguments) ?? 0
            return try Self.summaryPage(
                page, total: total, db, ids: "SELECT id \(visible) ORDER BY id DESC", order: "p.id DESC",
                arguments: arguments)
        }
    }

    /// The page of a list of `total` products whose ids, in `order` (in terms of `product p`), `ids` selects (the
    /// caller's arguments give `:limit` and `:offset`), from an index alone where they can; only those rows joined.
    private static func summaryPage(
        _ page: PageRequest, total: Int, _ db: Database, ids: String, order: String, arguments: StatementArguments
    ) throws -> Page<ProductSummary> {
        // Cached statements: compiling (and GRDB's authorizer) cost more than running these.
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    WITH page AS (\(ids) LIMIT :limit OFFSET :offset)
                    SELECT \(productColumns), i.thumbnailKey,
                        (SELECT group_concat(thumbnailKey, ' ') FROM (
                            SELECT thumbnailKey FROM productImage WHERE productId = p.id ORDER BY position
                        ))
                    FROM page JOIN product p ON p.id = page.id
                    JOIN vendor v ON v.id = p.vendorId
                    LEFT JOIN productImage i ON i.id = p.coverImageId
                    ORDER BY \(order)
                    """),
            arguments: arguments)
        return Page(request: page, totalCount: total, items: try rows.map(summary(from:)))
    }

    public func ownership(of productID: Int64) async throws -> ProductOwnership? {
        try await row(
            """
            SELECT v.identifier, v.secretHash, p.passwordHash, p.hidden
            FROM product p JOIN vendor v ON v.id = p.vendorId WHERE p.id = ?
            """, [productID]
        ) {
            ProductOwnership(
                vendorIdentifier: $0["identifier"], vendorSecretHash: $0["secretHash"],
                passwordHash: $0["passwordHash"], hidden: $0["hidden"])
        }
    }

    public func updateProduct(
        id: Int64, replacingImages images: [NewProductImage]?, _ change: @escaping @Sendable (Product) throws -> Product
    ) async throws -> (before: Product, after: Product)? {
        try await write { db in
            guard let product = try Self.product(id: id, in: db) else { return nil }
            let changed = try change(product)
            guard changed != product || images != nil else { return (product, product) }
            try db.execute(
                sql: """
                    UPDATE product SET name = ?, description = ?, currency = ?, price = ?, discount = ?,
                        stock = ?, zeroSalePriceSent = ?, coverImageId = ?, searchText = ?, updatedAt = ?
                    WHERE id = ?
                    """,
                arguments: [
                    changed.name, changed.description, changed.currency.rawValue, changed.price,
                    changed.discount, changed.stock, changed.zeroSalePriceSent, changed.coverImageID,
                    NewProduct.searchText(name: changed.name, description: changed.description),
                    changed.updatedAt, id,
                ])
            if let images {
                try db.execute(sql: "DELETE FROM productImage WHERE productId = ?", arguments: [id])
                try Self.insertImages(images, of: id, at: changed.updatedAt, in: db)
            }
            return (product, try Self.product(id: id, in: db)!)
        }
    }

    /// Adds image rows in order and makes the first one the cover.
    private static func insertImages(
        _ images: [NewProductImage], of productID: Int64, at date: Date, in db: Database
    ) throws {
        var coverID: Int64?
        for (position, image) in images.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO productImage (productId, position, originalKey, thumbnailKey, width, height, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    productID, position, image.originalKey, image.thumbnailKey, image.width, image.height, date,
                ])
            coverID = coverID ?? db.lastInsertedRowID
        }
        try db.execute(sql: "UPDATE product SET coverImageId = ? WHERE id = ?", arguments: [coverID, productID])
    }

    public func deleteProduct(id: Int64) async throws -> Product? {
        try await write { db in
            guard let product = try Self.product(id: id, in: db) else { return nil }
            try db.execute(sql: "DELETE FROM product WHERE id = ?", arguments: [id])
            return product
        }
    }

    public func insertDeleteToken(hash: String, productID: Int64, issuedAt: Date) async throws {
        try await execute(Self.deleteTokenInsert, [hash, productID, issuedAt])
    }

    static let deleteTokenInsert = "INSERT INTO deleteToken (tokenHash, productId, issuedAt) VALUES (?, ?, ?)"

    public func productID(forDeleteToken hash: String) async throws -> Int64? {
        try await value("SELECT productId FROM deleteToken WHERE tokenHash = ?", [hash])
    }

    public func referencedImageKeys(among keys: [String]) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return try await read { db in
            let marks = databaseQuestionMarks(count: keys.count)
            return try String.fetchSet(
                db,
                sql: """
                    SELECT originalKey FROM productImage WHERE originalKey IN (\(marks))
                    UNION SELECT thumbnailKey FROM productImage WHERE thumbnailKey IN (\(marks))
                    """,
                arguments: StatementArguments(keys + keys))
        }
    }

    // MARK: Rows to values

    /// The product with this id; with `visibleOnly`, nil when it is hidden. One statement, read row
    /// by row without copying (one row per image, or one without any).
    static func product(id: Int64, in db: Database, visibleOnly: Bool = false) throws -> Product? {
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT \(productColumns), p.updatedAt, p.coverImageId, p.hidden,
                        i.id, i.originalKey, i.thumbnailKey, i.width, i.height, i.createdAt
                    FROM product p JOIN vendor v ON v.id = p.vendorId
                    LEFT JOIN productImage i ON i.productId = p.id
                    WHERE p.id = ? ORDER BY i.position
                    """),
            arguments: [id])
        var product: Product?
        while let row = try rows.next() {
            if product == nil {
                if visibleOnly, row[14] == true { return nil }
                product = Product(
                    id: row[0], vendor: VendorSummary(id: row[1], name: row[2], createdAt: row[3]), name: row[4],
                    description: row[5], currency: try currency(row[6], of: row[0]), price: row[7], discount: row[8],
                    stock: row[9], zeroSalePriceSent: row[11], images: [], coverImageID: row[13], createdAt: row[10],
                    updatedAt: row[12])
            }
            guard let imageID: Int64 = row[15] else { continue }
            product?.images.append(
                ProductImage(
                    id: imageID, originalKey: row[16], thumbnailKey: row[17], width: row[18], height: row[19],
                    createdAt: row[20]))
        }
        return product
    }

    /// What a product's summary and its whole read both begin with, read by position: GRDB's
    /// lookups by name lowercase every column's name for every row.
    private static let productColumns = """
        p.id, p.vendorId, v.name, v.createdAt, p.name, p.description, p.currency, p.price, p.discount, p.stock, \
        p.createdAt, p.zeroSalePriceSent
        """

    /// A row of `productColumns`, the cover's thumbnail and all thumbnails separated by spaces.
    private static func summary(from row: Row) throws -> ProductSummary {
        ProductSummary(
            id: row[0], vendor: VendorSummary(id: row[1], name: row[2], createdAt: row[3]), name: row[4],
            description: row[5], currency: try currency(row[6], of: row[0]), price: row[7], discount: row[8],
            stock: row[9], zeroSalePriceSent: row[11], thumbnailKey: row[12] ?? "",
            thumbnailKeys: thumbnailKeys(row[13]), createdAt: row[10])
    }

    /// Keys are plain ASCII: split as bytes, not as characters.
    private static func thumbnailKeys(_ joined: String?) -> [String] {
        guard let joined else { return [] }
        return joined.utf8.split(separator: UInt8(ascii: " ")).map { String(Substring($0)) }
    }

    static func vendor(from row: Row) -> Vendor {
        Vendor(
            id: row["id"], identifier: row["identifier"], name: row["name"], createdAt: row["createdAt"],
            teamSeat: row["teamSeat"])
    }

    static func storedVendor(from row: Row) -> StoredVendor {
        StoredVendor(vendor: vendor(from: row), secretHash: row["secretHash"])
    }

    private static func currency(_ code: String, of id: Int64) throws -> Currency {
        guard let currency = Currency(rawValue: code) else {
            throw DatabaseError(message: "unknown currency \(code) in product \(id)")
        }
        return currency
    }
}
