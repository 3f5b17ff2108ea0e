extension MarketService {
    /// Removes image blobs that no product names any more and that nobody has put for `grace`, as deletes,
    /// replaced pictures and failed requests leave them; returns how many went.
    ///
    /// Safe beside concurrent writers on any number of servers: a create puts (so marks as used) every blob before
    /// its rows name it, and a blob goes only if still unused after the check that no row names it. `grace` must
    /// outlast a create's step from its puts to its commit.
    @discardableResult
    public func sweepImages(unusedFor grace: Duration) async throws -> Int {
        var removed = 0
        let candidates = try await images.keys(unusedFor: grace)
        for start in stride(from: 0, to: candidates.count, by: 500) {
            let batch = Array(candidates[start..<min(start + 500, candidates.count)])
            // A smaller copy goes with the image it was made from, not before.
            let sources = batch.map { key in
                ImageKey.variant(key).map { ImageKey.sourceKeys(ofVariant: $0.hash) } ?? [key]
            }
            let named = try await store.referencedImageKeys(among: Array(Set(sources.flatMap { $0 })))
            for (key, keys) in zip(batch, sources) where named.isDisjoint(with: keys) {
                if try await images.remove(key: key, ifUnusedFor: grace) { removed += 1 }
            }
        }
        return removed
    }
}
