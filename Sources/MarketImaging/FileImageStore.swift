import Foundation
import MarketCore

/// Image blobs as files under one folder, fanned out by their key's first two characters, written to a temporary name
/// and renamed into place so that no reader sees half of one. A file's modification time is when it was last put.
public struct FileImageStore: ImageStore {
    public let root: URL
    /// Puts and removals of one key never interleave, so a removal cannot take a blob that was
    /// just put again. One process owns a data folder.
    private let lock = NSLock()

    public init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    public func put(_ data: Data, key: String) async throws {
        let url = try location(of: key)
        try lock.withLock {
            if FileManager.default.fileExists(atPath: url.path) {
                try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
                return
            }
            let folder = url.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let temporary = folder.appendingPathComponent(".\(UUID().uuidString).partial")
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                try? FileManager.default.removeItem(at: temporary)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
    }

    public func content(forKey key: String) async throws -> ImageContent? {
        let url = try location(of: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return .bytes(try Data(contentsOf: url))
    }

    public func keys(unusedFor interval: Duration) async throws -> [String] {
        let cutoff = Date() - interval.seconds
        guard
            let files = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.contentModificationDateKey])
        else { return [] }
        return files.compactMap { item -> String? in
            guard let url = item as? URL, ImageKey.isValid(url.lastPathComponent),
                let modified = try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate,
                modified <= cutoff
            else { return nil }
            return url.lastPathComponent
        }
    }

    public func remove(key: String, ifUnusedFor interval: Duration) async throws -> Bool {
        let url = try location(of: key)
        return try lock.withLock {
            guard
                let modified = try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date,
                modified <= Date() - interval.seconds
            else { return false }
            try FileManager.default.removeItem(at: url)
            return true
        }
    }

    public func checkWritable() async throws {
        guard access(root.path, W_OK) == 0 else {
            throw MarketError.unavailable(.imagesNotWritable(String(cString: strerror(errno))))
        }
    }

    private func location(of key: String) throws -> URL {
        guard ImageKey.isValid(key) else { throw CocoaError(.fileReadInvalidFileName) }
        return root.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key)
    }
}
