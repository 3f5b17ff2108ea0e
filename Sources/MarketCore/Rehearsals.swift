import Foundation
import MarketModel

/// What learners rehearse with, beside the market's rules: each vendor's recent requests as the
/// inspector recorded them, and the failures a vendor stages for their own requests. Everything is
/// in the store, so it holds across servers; faults set elsewhere (another server, the command)
/// take effect here within `faultsFreshness`. API requests that name no vendor (2021 items, plain
/// reads) are kept for the operator, in this server's memory only: the newest `keptRequests`.
public final class Rehearsals: @unchecked Sendable {
    /// How many requests the inspector keeps per vendor.
    public static let keptRequests = 300
    public static let faultsFreshness: Duration = .seconds(1)
    /// How soon a live inspector sees a request another server kept.
    public static let followInterval: Duration = .seconds(1)
    public static let followersPerVendor = 8

    let store: any MarketStore
    let now: @Sendable () -> Date
    /// Time as it passes (never set back), for how long what was read is trusted.
    let elapsed: @Sendable () -> ContinuousClock.Instant
    private let lock = NSLock()
    private var vendors: [String: Vendor] = [:]
    private var faults: [Int64: CachedFaults] = [:]
    /// Written out only when the operator looks: most are never read, and a read path must not pay
    /// for them. A ring: request number n is in slot n % `keptRequests` until number n + `keptRequests`.
    private var anonymous: [AnonymousRequest?] = Array(repeating: nil, count: keptRequests)
    private var anonymousCount: Int64 = 0
    /// Live inspectors, by vendor: each is woken when this server keeps one of that vendor's requests.
    private var followers: [Int64: [UUID: AsyncStream<Void>.Continuation]] = [:]

    public init(
        store: any MarketStore, now: @escaping @Sendable () -> Date = Date.init,
        elapsed: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.store = store
        self.now = now
        self.elapsed = elapsed
    }

    /// The vendor an `identifier` header names, or nil. Vendors are never removed, so a vendor once
    /// found is remembered.
    public func vendor(identifiedBy identifier: String) async throws -> Vendor? {
        let identifier = VendorIdentifier.normalized(identifier)
        if let known = lock.withLock({ vendors[identifier] }) { return known }
        guard let vendor = try await store.vendorCredentials(identifier: identifier)?.vendor else { return nil }
        lock.withLock { vendors[identifier] = vendor }
        return vendor
    }

    public func record(_ detail: Data, vendorID: Int64) async throws {
        try await store.appendRequestRecord(vendorID: vendorID, at: now(), detail: detail, keeping: Self.keptRequests)
        lock.withLock { followers[vendorID]?.values.forEach { $0.yield() } }
    }

    public func requests(
        of vendorID: Int64, after: Int64? = nil, limit: Int = keptRequests
    ) async throws -> [StoredRequestRecord] {
        try await store.requestRecords(vendorID: vendorID, after: after, limit: min(limit, Self.keptRequests))
    }

    /// Throws when as many follow the vendor as may: checked before a live answer begins, so that
    /// the client is told why (`follow` checks again, for one that began at the same moment).
    public func checkRoomToFollow(_ vendorID: Int64) throws {
        guard lock.withLock({ hasRoom(vendorID) }) else { throw Self.tooManyFollowers }
    }

    /// Fewer than `followersPerVendor` follow the vendor; asked under the lock.
    private func hasRoom(_ vendorID: Int64) -> Bool {
        followers[vendorID, default: [:]].count < Self.followersPerVendor
    }

    /// Ends every live inspector's following, as the server shuts down.
    public func stopFollowing() {
        lock.withLock { followers.values.forEach { $0.values.forEach { $0.finish() } } }
    }

    static let tooManyFollowers = MarketError(
        .throttled, "at most \(followersPerVendor) live inspectors follow one vendor at a time")

    /// Hands `deliver` the vendor's requests kept after the one with id `after`, oldest first, as
    /// they come, until it throws or the task is cancelled: those this server keeps at once, those
    /// other servers keep within `followInterval`. `deliver` is also called with none at each
    /// interval, so that a caller can tell its client it is still there (and find out it is not).
    /// At most `followersPerVendor` follow one vendor at a time on one server.
    public func follow(
        _ vendorID: Int64, after: Int64?, _ deliver: ([StoredRequestRecord]) async throws -> Void
    ) async throws {
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let follower = UUID()
        let room = lock.withLock {
            guard hasRoom(vendorID) else { return false }
            followers[vendorID, default: [:]][follower] = signal
            return true
        }
        guard room else { throw Self.tooManyFollowers }
        defer { lock.withLock { _ = followers[vendorID]?.removeValue(forKey: follower) } }
        let ticker = Task {
            while !Task.isCancelled {
                signal.yield()
                try? await Task.sleep(for: Self.followInterval)
            }
        }
        defer { ticker.cancel() }
        var last = after
        for await _ in signals {
            let kept = try await requests(of: vendorID, after: last)
            last = kept.first?.id ?? last
            try await deliver(kept.reversed())
        }
    }

    /// Keeps a request that named no vendor; `detail` writes its record when the operator asks.
    public func recordAnonymous(_ detail: @escaping @Sendable () -> Data) {
        let at = now()
        // The request it replaces is handed out of the lock and freed there: freeing what it holds
        // inside kept the other loop waiting.
        _ = lock.withLock {
            anonymousCount += 1
            let slot = Int(anonymousCount % Int64(Self.keptRequests))
            let replaced = anonymous[slot]
            anonymous[slot] = AnonymousRequest(id: anonymousCount, at: at, detail: detail)
            return replaced
        }
    }

    /// The requests that named no vendor, newest first, as this server received them.
    public func anonymousRequests(limit: Int = keptRequests) -> [StoredRequestRecord] {
        lock.withLock {
            let count = min(Int64(min(limit, Self.keptRequests)), anonymousCount)
            return stride(from: anonymousCount, to: anonymousCount - count, by: -1).compactMap {
                anonymous[Int($0 % Int64(Self.keptRequests))]
            }
        }.map { StoredRequestRecord(id: $0.id, at: $0.at, detail: $0.detail()) }
    }

    public func faults(of vendorID: Int64) async throws -> RehearsedFaults? {
        try await store.faults(vendorID: vendorID).flatMap { try? JSONDecoder().decode(RehearsedFaults.self, from: $0) }
    }

    /// Sets a vendor's faults (nil or all off clears them); checked first.
    public func setFaults(_ faults: RehearsedFaults?, vendorID: Int64) async throws {
        let faults = try faults.map { try $0.validated() }.flatMap { $0.isOff ? nil : $0 }
        try await store.setFaults(try faults.map { try JSONEncoder().encode($0) }, vendorID: vendorID)
        lock.withLock { self.faults[vendorID] = CachedFaults(faults: faults, readAt: elapsed(), served: 0) }
    }

    /// What to stage for a vendor's next request, or nil when they have no faults set. Requests are
    /// counted from when the faults were set (or last changed), so a seed replays the same sequence.
    public func nextStaging(for vendorID: Int64) async throws -> StagedFault? {
        let start = elapsed()
        if lock.withLock({ faults[vendorID].map { start - $0.readAt > Self.faultsFreshness } ?? true }) {
            remember(try await faults(of: vendorID), of: vendorID, readAt: start)
        }
        return lock.withLock {
            guard var cached = faults[vendorID], let setting = cached.faults else { return nil }
            defer {
                cached.served += 1
                faults[vendorID] = cached
            }
            return setting.staging(request: cached.served)
        }
    }

    /// Faults read from the store, as of when the read began, unless what is known is newer (set
    /// here meanwhile); requests already staged count on while they are unchanged.
    private func remember(_ read: RehearsedFaults?, of vendorID: Int64, readAt: ContinuousClock.Instant) {
        lock.withLock {
            if let known = faults[vendorID], known.readAt > readAt { return }
            let served = faults[vendorID].flatMap { $0.faults == read ? $0.served : nil } ?? 0
            faults[vendorID] = CachedFaults(faults: read, readAt: readAt, served: served)
        }
    }

    private struct CachedFaults {
        var faults: RehearsedFaults?
        var readAt: ContinuousClock.Instant
        /// Requests staged since these faults were read unchanged.
        var served: UInt64
    }
}

/// A request that named no vendor, as `Rehearsals` keeps it.
private struct AnonymousRequest {
    var id: Int64
    var at: Date
    var detail: @Sendable () -> Data
}
