import Foundation
import MarketModel
import Synchronization

/// Each vendor's recent requests as the inspector recorded them, kept in the store so that every
/// server shows them, and followed live. API requests that name no vendor (2021 items, plain
/// reads) are kept for the operator, in this server's memory only: the newest `keptRequests`.
public final class RequestRecords: Sendable {
    /// How many requests the inspector keeps per vendor.
    public static let keptRequests = 300
    /// How soon a live inspector sees a request another server kept.
    public static let followInterval: Duration = .seconds(1)
    public static let followersPerVendor = 8

    let store: any MarketStore
    let now: @Sendable () -> Date
    private let state = Mutex(State())
    /// The steps this server has noted for each vendor already, which it need not write again.
    private let notedSteps = Mutex<Set<String>>([])

    private struct State {
        /// Written out only when the operator looks: most are never read, and a read path must not pay for them.
        /// A ring: request n sits in slot n % `keptRequests` until request n + `keptRequests` replaces it.
        var anonymous: [AnonymousRequest?] = Array(repeating: nil, count: keptRequests)
        var anonymousCount: Int64 = 0
        /// Live inspectors, by vendor: each is woken when this server keeps one of that vendor's requests.
        var followers: [Int64: [UUID: AsyncStream<Void>.Continuation]] = [:]

        func hasRoom(_ vendorID: Int64) -> Bool {
            followers[vendorID, default: [:]].count < RequestRecords.followersPerVendor
        }
    }

    public init(store: any MarketStore, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.now = now
    }

    public func record(_ detail: Data, vendorID: Int64) async throws {
        try await store.appendRequestRecord(vendorID: vendorID, at: now(), detail: detail, keeping: Self.keptRequests)
        state.withLock { $0.followers[vendorID]?.values.forEach { $0.yield() } }
    }

    /// Notes when a vendor's app first got through `step`, once: requests are kept only `keptRequests` at a time.
    public func noteStep(_ step: String, vendorID: Int64) async throws {
        let key = "\(vendorID) \(step)"
        guard notedSteps.withLock({ $0.insert(key).inserted }) else { return }
        do {
            try await store.noteFirstStep(step, vendorID: vendorID, at: now())
        } catch {
            _ = notedSteps.withLock { $0.remove(key) }
            throw error
        }
    }

    public func firstSteps(of vendorID: Int64) async throws -> [String: Date] {
        try await store.firstSteps(vendorID: vendorID)
    }

    public func requests(
        of vendorID: Int64, after: Int64? = nil, limit: Int = keptRequests
    ) async throws -> [StoredRequestRecord] {
        try await store.requestRecords(vendorID: vendorID, after: after, limit: min(limit, Self.keptRequests))
    }

    /// Throws when as many follow the vendor as may: checked before a live answer begins, so that
    /// the client is told why (`follow` checks again, for one that began at the same moment).
    public func checkRoomToFollow(_ vendorID: Int64) throws {
        guard state.withLock({ $0.hasRoom(vendorID) }) else { throw Self.tooManyFollowers }
    }

    /// Ends every live inspector's following, as the server shuts down.
    public func stopFollowing() { state.withLock { $0.followers.values.forEach { $0.values.forEach { $0.finish() } } } }

    static let tooManyFollowers = MarketError(.throttled, .tooManyFollowers(followersPerVendor))

    /// Hands `deliver` the vendor's requests kept after the one with id `after`, oldest first, as they come, until
    /// it throws or the task is cancelled; other servers' arrive within `followInterval`. It is also called with
    /// none each interval, so a caller can tell its client it is still there (and find out it is not).
    /// At most `followersPerVendor` follow one vendor on one server.
    public func follow(
        _ vendorID: Int64, after: Int64?, _ deliver: ([StoredRequestRecord]) async throws -> Void
    ) async throws {
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let follower = UUID()
        let room = state.withLock { state in
            guard state.hasRoom(vendorID) else { return false }
            state.followers[vendorID, default: [:]][follower] = signal
            return true
        }
        guard room else { throw Self.tooManyFollowers }
        defer { state.withLock { _ = $0.followers[vendorID]?.removeValue(forKey: follower) } }
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
        // The request it replaces is handed out of the lock and freed there, not while others wait.
        _ = state.withLock { state in
            state.anonymousCount += 1
            let slot = Int(state.anonymousCount % Int64(Self.keptRequests))
            let replaced = state.anonymous[slot]
            state.anonymous[slot] = AnonymousRequest(id: state.anonymousCount, at: at, detail: detail)
            return replaced
        }
    }

    /// The requests that named no vendor, newest first, as this server received them.
    public func anonymousRequests(limit: Int = keptRequests) -> [StoredRequestRecord] {
        state.withLock { state in
            let count = min(Int64(min(limit, Self.keptRequests)), state.anonymousCount)
            return stride(from: state.anonymousCount, to: state.anonymousCount - count, by: -1).compactMap {
                state.anonymous[Int($0 % Int64(Self.keptRequests))]
            }
        }.map { StoredRequestRecord(id: $0.id, at: $0.at, detail: $0.detail()) }
    }
}

private struct AnonymousRequest: Sendable {
    var id: Int64
    var at: Date
    var detail: @Sendable () -> Data
}
