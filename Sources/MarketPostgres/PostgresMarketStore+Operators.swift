import Foundation
import MarketCore
import MarketModel
import PostgresNIO

extension PostgresMarketStore {
    public func insertOperator(name: String, secretHash: String, at date: Date) async throws {
        do {
            try await execute(
                "INSERT INTO market_operator (name, secret_hash, created_at) VALUES (\(name), \(secretHash), \(date))")
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw MarketError(.conflict, .operatorTaken(name))
        }
    }

    public func operatorSecretHash(name: String) async throws -> String? {
        try await first("SELECT secret_hash FROM market_operator WHERE name = \(name)", as: String.self)
    }

    public func recordOperatorAction(_ action: OperatorAction) async throws {
        try await execute(
            """
            INSERT INTO operator_action (operator_name, action, at)
            VALUES (\(action.operatorName), \(action.stored), \(action.at))
            """)
    }

    public func operatorActions(limit: Int) async throws -> [OperatorAction] {
        try await all(
            "SELECT operator_name, action, at FROM operator_action ORDER BY id DESC LIMIT \(limit)",
            as: (String, String, Date).self
        ).map { OperatorAction(operatorName: $0, stored: $1, at: $2) }
    }

    public func vendorOverview() async throws -> [VendorOverview] {
        try await all(
            """
            SELECT \(unescaped: Self.vendorColumns),
                (SELECT count(*) FROM product p WHERE p.vendor_id = v.id AND NOT p.hidden),
                (SELECT count(*) FROM product p WHERE p.vendor_id = v.id AND p.hidden),
                (SELECT max(at) FROM request_record r WHERE r.vendor_id = v.id)
            FROM vendor v ORDER BY v.id
            """, as: (Int64, String, String, Date, Int?, Int, Int, Date?).self
        ).map {
            VendorOverview(
                vendor: Self.vendor(($0, $1, $2, $3, $4)), productCount: $5, hiddenCount: $6, lastRequestAt: $7)
        }
    }

    public func setProductHidden(_ hidden: Bool, id: Int64) async throws -> String? {
        try await database.transaction { session in
            try await session.first(
                "UPDATE product SET hidden = \(hidden) WHERE id = \(id) RETURNING name", as: String.self)
        }
    }

    public func hiddenProducts() async throws -> [ProductLabel] {
        try await all(
            """
            SELECT p.id, p.name, v.name FROM product p JOIN vendor v ON v.id = p.vendor_id
            WHERE p.hidden ORDER BY p.id
            """, as: (Int64, String, String).self
        ).map { ProductLabel(id: $0, name: $1, vendorName: $2) }
    }

    public func deleteEveryProduct() async throws -> Int {
        try await database.transaction { session in
            // No product is created meanwhile, by this server or another, under a number given again.
            try await session.execute("LOCK TABLE product IN EXCLUSIVE MODE")
            let removed = try await session.all("DELETE FROM product RETURNING id", as: Int64.self).count
            try await session.execute(
                """
                SELECT setval(pg_get_serial_sequence('product', 'id'), 1, false),
                    setval(pg_get_serial_sequence('product_image', 'id'), 1, false)
                """)
            return removed
        }
    }
}
