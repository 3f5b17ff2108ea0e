import Foundation
import MarketCore
import MarketPostgres

/// Copies a whole market from its folder (SQLite and image files) into an empty PostgreSQL database: vendors with
/// their secret hashes, products with their ids, image rows and bytes, delete secrets, 2021 items' password hashes,
/// storefront sign-ins and the session key. Image bytes go in before any row names them. A copy that fails or is
/// cancelled leaves the database empty again, so that the same command starts it afresh.
public enum MarketMigration {
    /// What a copy moved.
    public struct Copied: Sendable, Equatable {
        public let vendors: Int, products: Int, pictures: Int
    }

    /// `progress` hears how far it is, and may throw to stop the copy (a person pressed Ctrl-C): the database is
    /// emptied again and the error rethrown.
    public static func copy(
        from folder: URL, to url: String, progress: @Sendable (WorkProgress) throws -> Void
    ) async throws -> Copied {
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("market.sqlite").path) else {
            throw SetupError("there is no market in \(folder.path) (no market.sqlite)")
        }
        let source = try await Market.openForCopying(.folder(folder))
        let target = try await Market.openForCopying(.postgres(url: url))
        guard let importer = target.store as? PostgresMarketStore else {
            preconditionFailure("a database's market is kept in PostgreSQL")
        }
        return try await target.run {
            let copied = try await copyMarket(from: source, into: target, progress: progress)
            try await importer.replaceSessionKey(with: source.sessionKey.bytes)
            return copied
        }
    }

    /// Everything of `source` into `target`, which must be empty, ids and all (the session key is
    /// the caller's: it lives beside a folder's store, inside a database's).
    @discardableResult
    static func copyMarket(
        from source: Market, into target: Market, progress: @Sendable (WorkProgress) throws -> Void
    ) async throws -> Copied {
        guard let exporter = source.store as? any MarketExporting, let importer = target.store as? any MarketImporting
        else { preconditionFailure("every store exports and imports") }
        guard try await importer.isEmpty() else {
            throw SetupError("the database holds a market already; copy into an empty database")
        }
        do {
            return try await copyRows(from: exporter, source.images, into: importer, target.images, progress: progress)
        } catch {
            // Nothing half-copied is left for a later run to trust.
            try await importer.discardImport()
            throw error
        }
    }

    private static func copyRows(
        from exporter: any MarketExporting, _ sourceImages: any ImageStore, into importer: any MarketImporting,
        _ targetImages: any ImageStore, progress: @Sendable (WorkProgress) throws -> Void
    ) async throws -> Copied {
        let vendors = try await exporter.exportVendors()
        try await importer.importVendors(vendors)
        try await importer.importSessions(try await exporter.exportSessions(at: Date()))
        try progress(WorkProgress(.vendors, done: vendors.count, of: vendors.count))

        let keys = try await sourceImages.keys(unusedFor: .zero)
        for (index, key) in keys.enumerated() {
            guard case .bytes(let data)? = try await sourceImages.content(forKey: key) else { continue }
            try await targetImages.put(data, key: key)
            try progress(WorkProgress(.pictures, done: index + 1, of: keys.count))
        }

        let total = try await exporter.productCount()
        var copied = 0
        var lastID: Int64 = 0
        try progress(WorkProgress(.products, done: 0, of: total))
        while case let batch = try await exporter.exportProducts(after: lastID, limit: 500), let last = batch.last {
            try await importer.importProducts(batch)
            copied += batch.count
            lastID = last.product.id
            try progress(WorkProgress(.products, done: copied, of: total))
        }
        try progress(WorkProgress(.statistics, done: 0, of: nil))
        try await importer.finishImport(lastIDs: try await exporter.lastIDs())
        return Copied(vendors: vendors.count, products: copied, pictures: keys.count)
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
