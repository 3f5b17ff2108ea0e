import ArgumentParser
import Foundation
import MarketCore
import MarketHTTP
import MarketImaging
import MarketSQLite

/// The `--data-dir` option and what lives there: the SQLite database and the image files.
struct MarketFiles: ParsableArguments {
    @Option(help: "Folder for the database and the images, created when missing (OPENMARKET_DATA_DIR).")
    var dataDir: String = Environment.value("OPENMARKET_DATA_DIR", default: "./data")

    /// The key that seals the storefront's cookies, kept beside the database.
    func sessionKey() throws -> SessionKey {
        let root = URL(fileURLWithPath: dataDir, isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return try SessionKey(storedAt: root.appendingPathComponent("session.key"))
    }

    func openService(openRegistration: Bool = false) throws -> MarketService {
        let root = URL(fileURLWithPath: dataDir, isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return MarketService(
            store: try SQLiteMarketStore(path: root.appendingPathComponent("market.sqlite").path),
            images: try FileImageStore(root: root.appendingPathComponent("images", isDirectory: true)),
            imageProcessor: VipsImageProcessor(), openRegistration: openRegistration)
    }
}
