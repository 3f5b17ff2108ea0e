import Foundation
import MarketCore

/// Image blobs as files under one folder, fanned out by the first two characters of their key.
/// A blob is written to a temporary name and renamed into place, so no reader sees half of one.
public struct FileImageStore: ImageStore {
    public let root: URL

    public init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    public func put(_ data: Data, key: String) async throws -> Bool {
        let url = try location(of: key)
        guard !FileManager.default.fileExists(atPath: url.path) else { return false }
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(UUID().uuidString).partial")
        try data.write(to: temporary)
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return true
    }

    public func data(forKey key: String) async throws -> Data? {
        let url = try location(of: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    public func remove(key: String) async throws {
        let url = try location(of: key)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    /// Every key the store holds, for tests and maintenance.
    public func keys() throws -> Set<String> {
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return Set(files.compactMap { ($0 as? URL)?.lastPathComponent }.filter(ImageKey.isValid))
    }

    private func location(of key: String) throws -> URL {
        guard ImageKey.isValid(key) else { throw CocoaError(.fileReadInvalidFileName) }
        return root.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key)
    }
}
