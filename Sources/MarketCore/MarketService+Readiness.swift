/// Whether a server can do its work now: its store answers and new pictures can be stored.
public struct Readiness: Sendable, Equatable {
    /// What stops the store, or nil when it answers.
    public var database: String?
    /// What stops storing pictures, or nil when they can be stored.
    public var images: String?

    public var isReady: Bool { database == nil && images == nil }
}

extension MarketService {
    public func readiness() async -> Readiness {
        async let database = Self.problem { try await store.checkReachable() }
        async let images = Self.problem { try await self.images.checkWritable() }
        return Readiness(database: await database, images: await images)
    }

    private static func problem(_ check: () async throws -> Void) async -> String? {
        do {
            try await check()
            return nil
        } catch {
            return (error as? MarketError)?.description ?? "unavailable (\(type(of: error)))"
        }
    }
}
