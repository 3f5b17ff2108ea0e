import Foundation
import Logging
import MarketCore
import MarketImaging
import MarketPostgres
import MarketSQLite

/// Copies a whole market from its folder (SQLite and image files) into an empty PostgreSQL
/// database: vendors with their secret hashes, products with their ids, image rows and bytes,
/// delete secrets, 2021 items' password hashes and the session key. Image bytes go in before any
/// row names them.
public enum MarketMigration {
    public enum Step: Sendable, Equatable {
        case vendors(Int)
        case images(done: Int, of: Int)
        case products(done: Int, of: Int)
    }

    public static func copy(
        folder: URL, to url: String, progress: @Sendable (Step) -> Void
    ) async throws {
        let sqlitePath = folder.appendingPathComponent("market.sqlite").path
        guard FileManager.default.fileExists(atPath: sqlitePath) else {
            throw MarketError(.notFound, field: "data-dir", "there is no market in \(folder.path) (no market.sqlite)")
        }
        let source = try SQLiteMarketStore(path: sqlitePath)
        let files = try FileImageStore(root: folder.appendingPathComponent("images", isDirectory: true))
        let sessionKey = try? Data(contentsOf: folder.appendingPathComponent("session.key"))
        var logger = Logger(label: "openmarket")
        logger.logLevel = .error
        let target = try await PostgresMarket.open(url: url, logger: logger, deadline: .seconds(60))
        try await whileRunning([target.client], logger: logger) {
            guard try await target.store.isEmpty() else {
                throw MarketError(
                    .conflict, field: "to",
                    "the database at \(target.location) holds a market already; copy into an empty database")
            }
            let vendors = try await source.exportVendors()
            try await target.store.importVendors(vendors)
            progress(.vendors(vendors.count))

            let keys = try await files.keys(unusedFor: .zero)
            for (index, key) in keys.enumerated() {
                guard case .bytes(let data)? = try await files.content(forKey: key) else { continue }
                try await target.images.put(data, key: key)
                if (index + 1) % 100 == 0 || index + 1 == keys.count {
                    progress(.images(done: index + 1, of: keys.count))
                }
            }

            let total = try await source.productCount()
            var copied = 0
            var lastID: Int64 = 0
            while case let batch = try await source.exportProducts(after: lastID, limit: 500), let last = batch.last {
                try await target.store.importProducts(batch)
                copied += batch.count
                lastID = last.product.id
                progress(.products(done: copied, of: total))
            }
            try await target.store.finishImport(lastIDs: try await source.lastIDs())
            if let sessionKey, sessionKey.count == 32 { try await target.store.replaceSessionKey(with: sessionKey) }
        }
    }
}
