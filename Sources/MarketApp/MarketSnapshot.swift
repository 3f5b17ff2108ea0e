import Foundation
import MarketCore
import MarketModel
import MarketSQLite

/// The whole market in one file and back: `save` from a market's folder, `restore` into an empty folder or (through
/// `MarketMigration`) an empty PostgreSQL database. A restored market answers every request as the saved one did.
public enum MarketSnapshot {
    /// Saves the market of `folder` in `file`. It is written as `file.partial` and named `file` once whole, so that a
    /// save that fails or is stopped (by `progress` throwing) never leaves a file by that name; the partial is removed.
    public static func save(
        from folder: URL, to file: URL, progress: @Sendable (WorkProgress) throws -> Void = { _ in }
    ) async throws -> (products: Int, images: Int) {
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw SetupError("\(file.path) exists already; name a new file")
        }
        let partial = file.appendingPathExtension("partial")
        try? FileManager.default.removeItem(at: partial)
        let market = try await Market.openForCopying(.folder(folder))
        guard let store = market.store as? SQLiteMarketStore else {
            preconditionFailure("a folder's market is kept in SQLite")
        }
        do {
            try progress(WorkProgress(.database, done: 0, of: nil))
            let snapshot = try MarketSnapshotFile.create(at: partial.path, from: store)
            let keys = try await market.images.keys(unusedFor: .zero)
            for (index, key) in keys.enumerated() {
                guard case .bytes(let data)? = try await market.images.content(forKey: key) else { continue }
                try snapshot.addImage(data, key: key)
                try progress(WorkProgress(.pictures, done: index + 1, of: keys.count))
            }
            try snapshot.setSessionKey(market.sessionKey.bytes)
            let products = try await market.service.products(PageRequest(number: 1, itemsPerPage: 1)).totalCount
            try FileManager.default.moveItem(at: partial, to: file)
            return (products, keys.count)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Saves a market kept in PostgreSQL, by way of a folder it is first copied into.
    public static func save(
        fromDatabase url: String, to file: URL, progress: @Sendable (WorkProgress) throws -> Void = { _ in }
    ) async throws -> (products: Int, images: Int) {
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw SetupError("\(file.path) exists already; name a new file")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-save-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try await Market.openForCopying(.postgres(url: url))
        let copy = try await Market.openForCopying(.folder(folder))
        _ = try await source.run { try await MarketMigration.copyMarket(from: source, into: copy, progress: progress) }
        let key = folder.appendingPathComponent("session.key")
        try FileManager.default.removeItem(at: key)
        try OwnerOnlyFile.create(atPath: key.path, contents: source.sessionKey.bytes)
        return try await save(from: folder, to: file, progress: progress)
    }

    /// Restores into `folder`, which must hold no market; one that fails or is stopped (by `progress` throwing)
    /// leaves the folder without a market again.
    public static func restore(
        _ file: URL, into folder: URL, progress: @Sendable (WorkProgress) throws -> Void = { _ in }
    ) async throws {
        let database = folder.appendingPathComponent("market.sqlite")
        guard !FileManager.default.fileExists(atPath: database.path) else {
            throw SetupError("\(folder.path) holds a market already; restore into an empty folder")
        }
        let snapshot = try MarketSnapshotFile(path: file.path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            try progress(WorkProgress(.database, done: 0, of: nil))
            try snapshot.writeDatabase(to: database.path)
            if let key = try snapshot.sessionKey() {
                try OwnerOnlyFile.create(atPath: folder.appendingPathComponent("session.key").path, contents: key)
            }
            let market = try await Market.openForCopying(.folder(folder))
            let keys = try snapshot.imageKeys()
            for (index, key) in keys.enumerated() {
                if let data = try snapshot.image(key: key) { try await market.images.put(data, key: key) }
                try progress(WorkProgress(.pictures, done: index + 1, of: keys.count))
            }
        } catch {
            for name in ["market.sqlite", "market.sqlite-wal", "market.sqlite-shm", "session.key", "images"] {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
            throw error
        }
    }

    /// Restores into an empty PostgreSQL database, by way of a folder the migration then copies.
    public static func restore(
        _ file: URL, intoDatabase url: String, progress: @Sendable (WorkProgress) throws -> Void = { _ in }
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-restore-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await restore(file, into: folder, progress: progress)
        _ = try await MarketMigration.copy(from: folder, to: url, progress: progress)
    }
}
