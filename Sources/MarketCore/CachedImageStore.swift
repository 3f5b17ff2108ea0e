import Foundation

/// Keeps recently served image bytes in memory, up to `capacity` bytes, least recently used out
/// first, so serving an image does not ask a database each time. Keys are content hashes: a cached
/// copy is never stale, and no other server needs to be told about it.
public actor CachedImageStore: ImageStore {
    private let base: any ImageStore
    private let capacity: Int
    private var entries: [String: (data: Data, lastUse: UInt64)] = [:]
    private var size = 0
    private var clock: UInt64 = 0

    public init(_ base: any ImageStore, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    public func put(_ data: Data, key: String) async throws {
        try await base.put(data, key: key)
    }

    public func content(forKey key: String) async throws -> ImageContent? {
        clock += 1
        if let entry = entries[key] {
            entries[key]?.lastUse = clock
            return .bytes(entry.data)
        }
        let content = try await base.content(forKey: key)
        if case .bytes(let data)? = content { remember(data, key: key) }
        return content
    }

    public func keys(unusedFor interval: Duration) async throws -> [String] {
        try await base.keys(unusedFor: interval)
    }

    public func remove(key: String, ifUnusedFor interval: Duration) async throws -> Bool {
        guard try await base.remove(key: key, ifUnusedFor: interval) else { return false }
        if let removed = entries.removeValue(forKey: key) { size -= removed.data.count }
        return true
    }

    public func checkWritable() async throws {
        try await base.checkWritable()
    }

    private func remember(_ data: Data, key: String) {
        guard data.count <= capacity, entries[key] == nil else { return }
        entries[key] = (data, clock)
        size += data.count
        while size > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            size -= oldest.value.data.count
        }
    }
}
