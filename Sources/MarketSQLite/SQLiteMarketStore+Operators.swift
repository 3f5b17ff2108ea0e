import Foundation
import GRDB
import MarketCore

extension SQLiteMarketStore {
    public func insertOperator(name: String, secretHash: String, at date: Date) async throws {
        do {
            try await execute(
                "INSERT INTO marketOperator (name, secretHash, createdAt) VALUES (?, ?, ?)", [name, secretHash, date])
        } catch DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY {
            throw MarketError(.conflict, .operatorTaken(name))
        }
    }

    public func operatorSecretHash(name: String) async throws -> String? {
        try await value("SELECT secretHash FROM marketOperator WHERE name = ?", [name])
    }

    public func recordOperatorAction(_ action: OperatorAction) async throws {
        try await execute(
            "INSERT INTO operatorAction (operatorName, action, at) VALUES (?, ?, ?)",
            [action.operatorName, action.stored, action.at])
    }

    public func operatorActions(limit: Int) async throws -> [OperatorAction] {
        try await rows("SELECT operatorName, action, at FROM operatorAction ORDER BY id DESC LIMIT ?", [limit]) {
            OperatorAction(operatorName: $0["operatorName"], stored: $0["action"], at: $0["at"])
        }
    }

    public func vendorOverview() async throws -> [VendorOverview] {
        try await rows(
            """
            SELECT v.*,
                (SELECT count(*) FROM product p WHERE p.vendorId = v.id AND p.hidden = 0) AS productCount,
                (SELECT count(*) FROM product p WHERE p.vendorId = v.id AND p.hidden = 1) AS hiddenCount,
                (SELECT max(at) FROM requestRecord r WHERE r.vendorId = v.id) AS lastRequestAt
            FROM vendor v ORDER BY v.id
            """
        ) {
            VendorOverview(
                vendor: Self.vendor(from: $0), productCount: $0["productCount"], hiddenCount: $0["hiddenCount"],
                lastRequestAt: $0["lastRequestAt"])
        }
    }

    public func setProductHidden(_ hidden: Bool, id: Int64) async throws -> String? {
        try await write { db in
            try String.fetchOne(
                db, sql: "UPDATE product SET hidden = ? WHERE id = ? RETURNING name", arguments: [hidden, id])
        }
    }

    public func hiddenProducts() async throws -> [ProductLabel] {
        try await rows(
            """
            SELECT p.id, p.name, v.name AS vendorName FROM product p JOIN vendor v ON v.id = p.vendorId
            WHERE p.hidden = 1 ORDER BY p.id
            """
        ) { ProductLabel(id: $0["id"], name: $0["name"], vendorName: $0["vendorName"]) }
    }

    public func deleteEveryProduct() async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM product")
            let removed = db.changesCount
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name IN ('product', 'productImage')")
            return removed
        }
    }
}
