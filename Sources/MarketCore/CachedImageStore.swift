import Foundation
import Synchronization

/// Keeps served image bytes in memory, up to `capacity` bytes, least recently used out first, so serving one does not
/// ask a database each time. Keys are content hashes: a cached copy is never stale, and no other server needs telling.
public final class CachedImageStore: ImageStore {
    private struct Entries {
        var byKey: [String: (data: Data, lastUse: UInt64)] = [:]
        var size = 0
        var clock: UInt64 = 0
    }

    private let base: any ImageStore
    private let capacity: Int
    private let entries = Mutex(Entries())

    public init(_ base: any ImageStore, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    public func put(_ data: Data, key: String) async throws { try await base.put(data, key: key) }

    public func content(forKey key: String) async throws -> ImageContent? {
        if let data = remembered(key) { return .bytes(data) }
        let content = try await base.content(forKey: key)
        if case .bytes(let data)? = content { remember(data, key: key) }
        return content
    }

    private func remembered(_ key: String) -> Data? {
        entries.withLock { entries in
            guard let index = entries.byKey.index(forKey: key) else { return nil }
            entries.clock += 1
            entries.byKey.values[index].lastUse = entries.clock
            return entries.byKey.values[index].data
        }
    }

    public func keys(unusedFor interval: Duration) async throws -> [String] { try await base.keys(unusedFor: interval) }

    public func remove(key: String, ifUnusedFor interval: Duration) async throws -> Bool {
        guard try await base.remove(key: key, ifUnusedFor: interval) else { return false }
        entries.withLock { entries in
            if let removed = entries.byKey.removeValue(forKey: key) { entries.size -= removed.data.count }
        }
        return true
    }

    public func checkWritable() async throws { try await base.checkWritable() }

    private func remember(_ data: Data, key: String) {
        guard data.count <= capacity else { return }
        entries.withLock { entries in
            guard entries.byKey[key] == nil else { return }
            entries.byKey[key] = (data, entries.clock)
            entries.size += data.count
            while entries.size > capacity, let oldest = entries.byKey.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries.byKey[oldest.key] = nil
                entries.size -= oldest.value.data.count
            }
        }
    }
}
