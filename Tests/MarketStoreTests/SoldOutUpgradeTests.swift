import Foundation
import GRDB
import MarketApp
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

@testable import MarketPostgres
@testable import MarketSQLite

/// A market that sold before its store kept what is sold out among each term's products (SQLite's
/// migration "sold out among each term's products", PostgreSQL's 24) lists what is in stock, and
/// counts it, as before once it is upgraded.
@Suite struct SoldOutUpgradeTests {
    @Test(arguments: StoreKind.allCases)
    func aTermsListOfWhatIsInStockIsRightAfterTheUpgrade(kind: StoreKind) async throws {
        var (configuration, cleanUp) = try await TestStorage.configuration(kind == .sqlite ? .sqlite : .postgres)
        configuration.secretCost = 4
        configuration.logLevel = .warning
        do {
            let market = try await Market.open(configuration)
            try await market.run { _ = try await ArrangedListTests.list(ArrangedListTests.items, in: market.store) }
            try await Self.undoUpgrade(configuration.storage)
            let upgraded = try await Market.open(configuration)
            try await upgraded.run {
                for term in ["가방", "가", "여행가방", "가방끈", "cup", "mug", "lamp", "손가방 모양"] {
                    let inStock = ArrangedListTests.items.filter {
                        $0.stock > 0 && "\($0.name)\n\($0.description)".lowercased().contains(term)
                    }
                    let listed = try await ArrangedListTests.listed(
                        upgraded.store, term, ProductArrangement(order: .newest, showsSoldOut: false))
                    let names = inStock.reversed().map(\.name)
                    #expect(listed == .init(total: names.count, names: names), "\(kind) \(term)")
                }
            }
        } catch {
            await cleanUp()
            throw error
        }
        await cleanUp()
    }

    /// Takes the store back to what it was before the upgrade, products and all.
    private static func undoUpgrade(_ storage: MarketConfiguration.Storage) async throws {
        switch storage {
        case .folder(let folder):
            let database = try DatabaseQueue(path: folder.appendingPathComponent("market.sqlite").path)
            try await database.write { db in
                try db.execute(
                    sql: """
                        \(SearchTriggers.dropping("productGrams"))
                        \(SearchTriggers.dropping("productSoldOutSearch"))
                        DROP TABLE productSoldOutSearch;
                        ALTER TABLE productGramCount DROP COLUMN soldOut;
                        \(SearchTriggers.keeping("productGrams", add: ShortTerms.add, remove: ShortTerms.remove))
                        CREATE INDEX productSoldOut ON product(id) WHERE hidden = 0 AND stock = 0;
                        DELETE FROM grdb_migrations WHERE identifier = 'sold out among each term''s products';
                        """)
            }
            try database.close()
        case .postgres(let url):
            let soldOut = try #require(PostgresSchema.migrations().first { $0.version == 24 })
            #expect(soldOut.name == "sold out among each short term's products", "undoes migration 24 alone")
            try await TestStorage.administer(url, "ALTER TABLE product_gram_count DROP COLUMN sold_out")
            try await TestStorage.administer(url, "DELETE FROM schema_migration WHERE version = 24")
        }
    }
}
