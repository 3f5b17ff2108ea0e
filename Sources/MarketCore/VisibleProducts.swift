import Synchronization

/// The ids of every product on show, oldest first, as of one catalogue version, so that a deep page is found by
/// position and read by its ids instead of the database stepping over every product before it. A store reads the
/// version in the same read as the page, and the ids again after a change.
public final class VisibleProducts: Sendable {
    /// Pages that begin before this many products are found by `OFFSET`, as cheaply.
    public static let deepOffset = 2000

    private let stored = Mutex<(version: Int64, ids: [Int64])?>(nil)
    private let loads = Mutex<[Int64: Task<[Int64], any Error>]>([:])

    public init() {}

    /// The ids at `version`: those kept, or what `read` gives (in the caller's transaction).
    public func ids(at version: Int64, reading read: () throws -> [Int64]) rethrows -> [Int64] {
        if let ids = cached(at: version) { return ids }
        let ids = try read()
        keep(ids, at: version)
        return ids
    }

    /// The ids at `version`: those kept, or what `read` gives, read once for every caller that
    /// asks for the same version meanwhile (the first pages after a change come many at once).
    public func ids(
        at version: Int64, reading read: @escaping @Sendable () async throws -> [Int64]
    ) async throws -> [Int64] {
        if let ids = cached(at: version) { return ids }
        let load = loads.withLock { loads in
            if let load = loads[version] { return load }
            let load = Task { try await read() }
            loads[version] = load
            return load
        }
        defer { loads.withLock { $0[version] = nil } }
        let ids = try await load.value
        keep(ids, at: version)
        return ids
    }

    /// The ids of the page at `offset` of `limit` products among `ids` (oldest first), in the
    /// page's order (none beyond the last page); and how many products are on show.
    public static func page(of ids: [Int64], offset: Int, limit: Int, newestFirst: Bool) -> (ids: [Int64], total: Int) {
        guard offset < ids.count else { return ([], ids.count) }
        let end = min(offset + limit, ids.count)
        let page =
            newestFirst ? Array(ids[(ids.count - end)..<(ids.count - offset)].reversed()) : Array(ids[offset..<end])
        return (page, ids.count)
    }

    public func cached(at version: Int64) -> [Int64]? {
        stored.withLock { stored in stored?.version == version ? stored?.ids : nil }
    }

    private func keep(_ ids: [Int64], at version: Int64) { stored.withLock { $0 = (version, ids) } }
}
