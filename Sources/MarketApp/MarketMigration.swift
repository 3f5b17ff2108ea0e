import Foundation
import MarketCore
import MarketPostgres

/// Copies a whole market from its folder (SQLite and image files) into an empty PostgreSQL database: vendors with
/// their secret hashes, products with their ids, image rows and bytes, delete secrets, 2021 items' password hashes,
/// storefront sign-ins and the session key. Image bytes go in before any row names them.
public enum MarketMigration {
    public enum Step: Sendable, Equatable {
        case vendors(Int)
        case images(done: Int, of: Int)
        case products(done: Int, of: Int)
    }

    public static func copy(from folder: URL, to url: String, progress: @Sendable (Step) -> Void) async throws {
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("market.sqlite").path) else {
            throw SetupError("there is no market in \(folder.path) (no market.sqlite)")
        }
        let source = try await Market.openForCopying(.folder(folder))
        let target = try await Market.openForCopying(.postgres(url: url))
        guard let importer = target.store as? PostgresMarketStore else {
            preconditionFailure("a database's market is kept in PostgreSQL")
        }
        try await target.run {
            try await copyMarket(from: source, into: target, progress: progress)
            try await importer.replaceSessionKey(with: source.sessionKey.bytes)
        }
    }

    /// Everything of `source` into `target`, which must be empty, ids and all (the session key is
    /// the caller's: it lives beside a folder's store, inside a database's).
    static func copyMarket(from source: Market, into target: Market, progress: @Sendable (Step) -> Void) async throws {
        guard let exporter = source.store as? any MarketExporting, let importer = target.store as? any MarketImporting
        else { preconditionFailure("every store exports and imports") }
        guard try await importer.isEmpty() else {
            throw SetupError("the database holds a market already; copy into an empty database")
        }
        let vendors = try await exporter.exportVendors()
        try await importer.importVendors(vendors)
        try await importer.importSessions(try await exporter.exportSessions(at: Date()))
        progress(.vendors(vendors.count))

        let keys = try await source.images.keys(unusedFor: .zero)
        for (index, key) in keys.enumerated() {
            guard case .bytes(let data)? = try await source.images.content(forKey: key) else { continue }
            try await target.images.put(data, key: key)
            if (index + 1) % 100 == 0 || index + 1 == keys.count { progress(.images(done: index + 1, of: keys.count)) }
        }

        let total = try await exporter.productCount()
        var copied = 0
        var lastID: Int64 = 0
        while case let batch = try await exporter.exportProducts(after: lastID, limit: 500), let last = batch.last {
            try await importer.importProducts(batch)
            copied += batch.count
            lastID = last.product.id
            progress(.products(done: copied, of: total))
        }
        try await importer.finishImport(lastIDs: try await exporter.lastIDs())
    }
}

extension Market {
    /// A market opened to copy from or into: it logs only errors, and waits up to a minute for a database.
    static func openForCopying(_ storage: MarketConfiguration.Storage) async throws -> Market {
        var configuration = MarketConfiguration(storage: storage)
        configuration.logLevel = .error
        configuration.databaseDeadline = .seconds(60)
        return try await Market.open(configuration)
    }
}
