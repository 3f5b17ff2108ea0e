import Foundation
import GRDB
import MarketCore
import MarketModel

/// A market copied in, ids and all: how a snapshot of a PostgreSQL market becomes one file.
extension SQLiteMarketStore: MarketImporting {
    public func isEmpty() async throws -> Bool {
        let count: Int? = try await value(
            "SELECT (SELECT count(*) FROM vendor) + (SELECT count(*) FROM product) + (SELECT count(*) FROM productImage)"
        )
        return count == 0
    }

    public func importVendors(_ vendors: [StoredVendor]) async throws {
        try await write { db in
            for stored in vendors {
                let vendor = stored.vendor
                try db.execute(
                    sql: Self.vendorInsert,
                    arguments: [
                        vendor.id, vendor.identifier, vendor.name, stored.secretHash, vendor.createdAt, vendor.isTeam,
                        vendor.teamSeat,
                    ])
            }
        }
    }

    public func importSessions(_ sessions: [StoredSession]) async throws {
        try await write { db in
            for session in sessions {
                try db.execute(
                    sql: "INSERT INTO vendorSession (tokenHash, vendorId, expiresAt) VALUES (?, ?, ?)",
                    arguments: [session.tokenHash, session.vendorID, session.expiresAt])
            }
        }
    }

    /// A hidden product goes in visible and is then hidden, so that the triggers keep it out of the
    /// total and the search index as they do for one hidden here.
    public func importProducts(_ products: [StoredProduct]) async throws {
        try await write { db in
            for stored in products {
                let product = stored.product
                try Self.insertProductRow(
                    id: product.id, vendorID: product.vendor.id, product.facts, passwordHash: stored.passwordHash,
                    createdAt: product.createdAt, updatedAt: product.updatedAt, in: db)
                for (position, image) in product.images.enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO productImage (id, productId, position, originalKey, thumbnailKey, width, height,
                                createdAt)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            image.id, product.id, position, image.originalKey, image.thumbnailKey, image.width,
                            image.height, image.createdAt,
                        ])
                }
                try db.execute(
                    sql: "UPDATE product SET coverImageId = ?, hidden = ? WHERE id = ?",
                    arguments: [product.coverImageID, stored.hidden, product.id])
                for token in stored.deleteTokens {
                    try db.execute(sql: Self.deleteTokenInsert, arguments: [token.hash, product.id, token.issuedAt])
                }
            }
        }
    }

    public func finishImport(lastIDs: LastIDs) async throws {
        try await write { db in
            for (table, last) in [
                ("vendor", lastIDs.vendor), ("product", lastIDs.product), ("productImage", lastIDs.image),
            ] {
                try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = ?", arguments: [table])
                try db.execute(
                    sql:
                        "INSERT INTO sqlite_sequence (name, seq) VALUES (?, max(?, (SELECT coalesce(max(id), 0) FROM \(table))))",
                    arguments: [table, last])
            }
        }
    }

    public func discardImport() async throws {
        try await write { db in
            for table in ["deleteToken", "productImage", "product", "vendorSession", "vendor"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
    }
}
