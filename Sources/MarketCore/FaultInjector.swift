import Foundation
import MarketModel
import Synchronization

/// Stages the failures each vendor asks for on their own requests (`FaultSettings`). Settings live in the store, so
/// they hold across servers; those set elsewhere (another server, the command) take effect here within `freshness`.
public final class FaultInjector: Sendable {
    public static let freshness: Duration = .seconds(1)

    let store: any MarketStore
    /// Time as it passes (never set back), for how long what was read is trusted.
    let elapsed: @Sendable () -> ContinuousClock.Instant
    private let known = Mutex<[Int64: CachedFaults]>([:])

    public init(store: any MarketStore, elapsed: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.store = store
        self.elapsed = elapsed
    }

    public func faults(of vendorID: Int64) async throws -> FaultSettings? {
        try await store.faults(vendorID: vendorID).flatMap { try? JSONDecoder().decode(FaultSettings.self, from: $0) }
    }

    /// Sets a vendor's faults (nil or all off clears them); checked first.
    public func setFaults(_ faults: FaultSettings?, vendorID: Int64) async throws {
        let faults = try faults.map { try $0.validated() }.flatMap { $0.isOff ? nil : $0 }
        try await store.setFaults(try faults.map { try JSONEncoder().encode($0) }, vendorID: vendorID)
        let readAt = elapsed()
        known.withLock { $0[vendorID] = CachedFaults(faults: faults, readAt: readAt, served: 0) }
    }

    /// The fault for a vendor's next request, or nil when they have none set. Requests are counted
    /// from when the faults were set (or last changed), so a seed replays the same sequence.
    public func nextFault(for vendorID: Int64) async throws -> InjectedFault? {
        let start = elapsed()
        if known.withLock({ $0[vendorID].map { start - $0.readAt > Self.freshness } ?? true }) {
            let read = try await faults(of: vendorID)
            // Kept unless set here meanwhile; the count of requests served goes on while the faults are unchanged.
            known.withLock { known in
                if let cached = known[vendorID], cached.readAt > start { return }
                let served = known[vendorID].flatMap { $0.faults == read ? $0.served : nil } ?? 0
                known[vendorID] = CachedFaults(faults: read, readAt: start, served: served)
            }
        }
        return known.withLock { known in
            guard var cached = known[vendorID], let setting = cached.faults else { return nil }
            defer {
                cached.served += 1
                known[vendorID] = cached
            }
            return setting.fault(forRequest: cached.served)
        }
    }

    private struct CachedFaults: Sendable {
        var faults: FaultSettings?
        var readAt: ContinuousClock.Instant
        /// Requests given a fault since these settings were read unchanged.
        var served: UInt64
    }
}
