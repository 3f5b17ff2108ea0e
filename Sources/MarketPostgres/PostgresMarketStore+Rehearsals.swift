import Foundation
import MarketCore
import PostgresNIO

/// What a learner's inspector shows and the faults they stage.
extension PostgresMarketStore {
    /// One vendor's records are numbered in the order they commit, whichever server keeps them: its live inspectors
    /// read on from the last number they saw, and a smaller number committed later would never reach them.
    public func appendRequestRecord(vendorID: Int64, at date: Date, detail: Data, keeping: Int) async throws {
        try await database.transaction { session in
            try await session.execute("SELECT id FROM vendor WHERE id = \(vendorID) FOR NO KEY UPDATE")
            try await session.execute(
                "INSERT INTO request_record (vendor_id, at, detail) VALUES (\(vendorID), \(date), \(detail))")
            try await session.execute(
                """
                DELETE FROM request_record WHERE vendor_id = \(vendorID) AND id <= (
                    SELECT id FROM request_record WHERE vendor_id = \(vendorID) ORDER BY id DESC LIMIT 1 OFFSET \(keeping))
                """)
        }
    }

    public func requestRecords(vendorID: Int64, after: Int64?, limit: Int) async throws -> [StoredRequestRecord] {
        try await all(
            """
            SELECT id, at, detail FROM request_record WHERE vendor_id = \(vendorID) AND id > \(after ?? 0)
            ORDER BY id DESC LIMIT \(limit)
            """, as: (Int64, Date, Data).self
        ).map { StoredRequestRecord(id: $0, at: $1, detail: $2) }
    }

    public func noteFirstStep(_ step: String, vendorID: Int64, at date: Date) async throws {
        try await execute(
            """
            INSERT INTO team_step (vendor_id, step, first_at) VALUES (\(vendorID), \(step), \(date))
            ON CONFLICT DO NOTHING
            """)
    }

    public func firstSteps(vendorID: Int64) async throws -> [String: Date] {
        let steps = try await all(
            "SELECT step, first_at FROM team_step WHERE vendor_id = \(vendorID)", as: (String, Date).self)
        return Dictionary(steps, uniquingKeysWith: { $1 })
    }

    public func faults(vendorID: Int64) async throws -> Data? {
        try await first("SELECT faults FROM vendor_faults WHERE vendor_id = \(vendorID)", as: Data.self)
    }

    public func setFaults(_ faults: Data?, vendorID: Int64) async throws {
        if let faults {
            try await execute(
                """
                INSERT INTO vendor_faults (vendor_id, faults) VALUES (\(vendorID), \(faults))
                ON CONFLICT (vendor_id) DO UPDATE SET faults = excluded.faults
                """)
        } else {
            try await execute("DELETE FROM vendor_faults WHERE vendor_id = \(vendorID)")
        }
    }

    public func classFaults() async throws -> Data? {
        try await first("SELECT faults FROM class_faults", as: Data.self)
    }

    public func setClassFaults(_ faults: Data?) async throws {
        if let faults {
            try await execute(
                """
                INSERT INTO class_faults (id, faults) VALUES (1, \(faults))
                ON CONFLICT (id) DO UPDATE SET faults = excluded.faults
                """)
        } else {
            try await execute("DELETE FROM class_faults")
        }
    }

    public func deleteProducts(vendorID: Int64) async throws -> Int {
        try await database.transaction { session in
            try await session.all("DELETE FROM product WHERE vendor_id = \(vendorID) RETURNING id", as: Int64.self)
                .count
        }
    }
}
