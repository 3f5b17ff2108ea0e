import GRDB
import MarketModel

/// How many products on show the buyer pays each amount for, by currency and stock (`productPriceCount`),
/// kept by triggers on `product`. A price range's total sums a row per price instead of walking the price
/// index: shops price in round amounts, so a range holds far fewer prices than products.
enum PriceCounts {
    static let create = """
        CREATE TABLE productPriceCount (
            currency TEXT NOT NULL, amount INTEGER NOT NULL, inStock INTEGER NOT NULL, count INTEGER NOT NULL,
            PRIMARY KEY (currency, amount, inStock)) WITHOUT ROWID;
        INSERT INTO productPriceCount
        SELECT currency, price - discount, stock > 0, count(*) FROM product WHERE hidden = 0 GROUP BY 1, 2, 3;
        CREATE TRIGGER productPriceCountInsert AFTER INSERT ON product BEGIN
            \(add("new"))
        END;
        CREATE TRIGGER productPriceCountDelete AFTER DELETE ON product BEGIN
            \(remove("old"))
        END;
        CREATE TRIGGER productPriceCountUpdate AFTER UPDATE OF currency, price, discount, stock, hidden ON product BEGIN
            \(remove("old"))
            \(add("new"))
        END;
        """

    private static func add(_ row: String) -> String {
        """
        INSERT INTO productPriceCount (currency, amount, inStock, count)
        SELECT \(row).currency, \(row).price - \(row).discount, \(row).stock > 0, 1 WHERE \(row).hidden = 0
        ON CONFLICT (currency, amount, inStock) DO UPDATE SET count = count + 1;
        """
    }

    /// A price nobody asks any more leaves no row behind.
    private static func remove(_ row: String) -> String {
        let key = """
            \(row).hidden = 0 AND currency = \(row).currency AND amount = \(row).price - \(row).discount
                AND inStock = (\(row).stock > 0)
            """
        return """
            UPDATE productPriceCount SET count = count - 1 WHERE \(key);
            DELETE FROM productPriceCount WHERE \(key) AND count = 0;
            """
    }

    static func total(in range: PriceRange, inStockOnly: Bool, _ db: Database) throws -> Int {
        let sql = """
            SELECT coalesce(sum(count), 0) FROM productPriceCount
            WHERE currency = ? AND amount BETWEEN ? AND ?\(inStockOnly ? " AND inStock" : "")
            """
        return try Int.fetchOne(
            db.cachedStatement(sql: sql), arguments: [range.currency.rawValue, range.lowest, range.highest]) ?? 0
    }

    static func soldOut(_ db: Database) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT coalesce(sum(count), 0) FROM productPriceCount WHERE NOT inStock")) ?? 0
    }
}
