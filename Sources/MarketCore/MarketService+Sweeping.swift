extension MarketService {
    /// Removes image blobs that no product names any more and that nobody has put for `grace`:
    /// what deletes, replaced pictures and failed requests left behind. Returns how many went.
    ///
    /// It is safe beside concurrent writers, on one server or several: a create puts (and so marks
    /// as used) every blob before its rows name it, and a blob is removed only if it is still unused
    /// after the check that no row names it. `grace` must outlast a create's step from its puts to
    /// its commit.
    @discardableResult
    public func sweepImages(unusedFor grace: Duration) async throws -> Int {
        var removed = 0
        let candidates = try await images.keys(unusedFor: grace)
        for start in stride(from: 0, to: candidates.count, by: 500) {
            let batch = Array(candidates[start..<min(start + 500, candidates.count)])
            // A smaller copy goes with the image it was made from, not before.
            let sources = batch.map(Self.sourceKeys)
            let named = try await store.referencedImageKeys(among: Array(Set(sources.flatMap { $0 })))
            for (key, keys) in zip(batch, sources) where named.isDisjoint(with: keys) {
                if try await images.remove(key: key, ifUnusedFor: grace) { removed += 1 }
            }
        }
        return removed
    }

    /// The keys whose image `key` is: itself, or for a smaller copy the image it was made from.
    private static func sourceKeys(_ key: String) -> [String] {
        guard let (hash, _, _) = ImageKey.variant(key) else { return [key] }
        return ImageKey.sourceKeys(ofVariant: hash)
    }
}
