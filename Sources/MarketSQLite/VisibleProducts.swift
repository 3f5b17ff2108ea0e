import GRDB
import Synchronization

/// The ids of every product on show, in order, as of one catalogue version: a page deep in the
/// whole catalogue is then found by position, instead of SQLite stepping over every entry before
/// it (page 4,000 of 20 stepped over 80,000). Read again on the first deep page after a change.
final class VisibleProducts: Sendable {
    /// Pages that begin before this many products are found by `OFFSET`, as cheaply.
    static let deepOffset = 2000

    private let kept = Mutex<(version: Int64, ids: [Int64])?>(nil)

    /// The ids of the products on show, oldest first, as this transaction sees them.
    func ids(_ db: Database) throws -> [Int64] {
        let version = try Int64.fetchOne(db.cachedStatement(sql: "SELECT version FROM catalogueVersion")) ?? 0
        if let kept = kept.withLock({ $0 }), kept.version == version { return kept.ids }
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM product WHERE hidden = 0 ORDER BY id")
        kept.withLock { $0 = (version, ids) }
        return ids
    }

    /// The first and last id of the page at `offset` of `limit` products, in either order, or nil
    /// beyond the last; and how many there are.
    func page(_ db: Database, offset: Int, limit: Int, newestFirst: Bool) throws -> (
        bounds: ClosedRange<Int64>?, total: Int
    ) {
        let ids = try ids(db)
        guard offset < ids.count else { return (nil, ids.count) }
        let end = min(offset + limit, ids.count) - 1
        let bounds = newestFirst ? ids[ids.count - 1 - end]...ids[ids.count - 1 - offset] : ids[offset]...ids[end]
        return (bounds, ids.count)
    }
}
