import Foundation
import GRDB
import MarketCore

/// What a learner's inspector shows and the faults they stage.
extension SQLiteMarketStore {
    public func appendRequestRecord(vendorID: Int64, at date: Date, detail: Data, keeping: Int) async throws {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO requestRecord (vendorId, at, detail) VALUES (?, ?, ?)",
                arguments: [vendorID, date, detail])
            try db.execute(
                sql: """
                    DELETE FROM requestRecord WHERE vendorId = ? AND id <= (
                        SELECT id FROM requestRecord WHERE vendorId = ? ORDER BY id DESC LIMIT 1 OFFSET ?)
                    """,
                arguments: [vendorID, vendorID, keeping])
        }
    }

    public func requestRecords(vendorID: Int64, after: Int64?, limit: Int) async throws -> [StoredRequestRecord] {
        try await rows(
            "SELECT id, at, detail FROM requestRecord WHERE vendorId = ? AND id > ? ORDER BY id DESC LIMIT ?",
            [vendorID, after ?? 0, limit]
        ) { StoredRequestRecord(id: $0["id"], at: $0["at"], detail: $0["detail"]) }
    }

    public func noteFirstStep(_ step: String, vendorID: Int64, at date: Date) async throws {
        try await execute(
            "INSERT INTO teamStep (vendorId, step, firstAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [vendorID, step, date])
    }

    public func firstSteps(vendorID: Int64) async throws -> [String: Date] {
        let steps = try await rows("SELECT step, firstAt FROM teamStep WHERE vendorId = ?", [vendorID]) {
            ($0["step"] as String, $0["firstAt"] as Date)
        }
        return Dictionary(steps, uniquingKeysWith: min)
    }

    public func faults(vendorID: Int64) async throws -> Data? {
        try await value("SELECT faults FROM vendorFaults WHERE vendorId = ?", [vendorID])
    }

    public func setFaults(_ faults: Data?, vendorID: Int64) async throws {
        if let faults {
            try await execute(
                "INSERT INTO vendorFaults (vendorId, faults) VALUES (?, ?) ON CONFLICT (vendorId) DO UPDATE SET faults = excluded.faults",
                [vendorID, faults])
        } else {
            try await execute("DELETE FROM vendorFaults WHERE vendorId = ?", [vendorID])
        }
    }

    public func classFaults() async throws -> Data? { try await value("SELECT faults FROM classFaults", []) }

    public func setClassFaults(_ faults: Data?) async throws {
        if let faults {
            try await execute(
                "INSERT INTO classFaults (id, faults) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET faults = excluded.faults",
                [faults])
        } else {
            try await execute("DELETE FROM classFaults", [])
        }
    }

    public func deleteProducts(vendorID: Int64) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM product WHERE vendorId = ?", arguments: [vendorID])
            return db.changesCount
        }
    }
}
