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
    /// Bytes of finished requests that may wait to be kept; beyond, a request is counted as not kept.
    public let backlogBytes: Int
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
        /// Requests of each vendor this server could not keep.
        var notKept: [Int64: Int] = [:]

        func hasRoom(_ vendorID: Int64) -> Bool {
            followers[vendorID, default: [:]].count < RequestRecords.followersPerVendor
        }
    }

    public init(store: any MarketStore, backlogBytes: Int = 64 << 20, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.backlogBytes = backlogBytes
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

    /// Counts a request of the vendor's that this server could not keep, so that the inspector says so.
    public func countNotKept(vendorID: Int64) { state.withLock { $0.notKept[vendorID, default: 0] += 1 } }

    /// How many of the vendor's requests this server could not keep since it started.
    public func notKept(of vendorID: Int64) -> Int { state.withLock { $0.notKept[vendorID] ?? 0 } }

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

    static let tooManyFollowers = MarketError(.throttled, .tooManyFollowers(followersPerVendor))

    /// Hands `deliver` the vendor's requests kept after the one with id `after`, oldest first, as they come, until
    /// it throws, the task is cancelled or `stop` is stopped; other servers' arrive within `followInterval`. It is
    /// also called with none each interval, so a caller can tell its client it is still there. A stop ends the
    /// following between two deliveries, never during one: what was handed to `deliver` is delivered whole.
    /// At most `followersPerVendor` follow one vendor on one server.
    public func follow(
        _ vendorID: Int64, after: Int64?, stop: FollowStop = FollowStop(),
        _ deliver: ([StoredRequestRecord]) async throws -> Void
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
        stop.attach(signal)
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
            try await deliver(kept.reversed())
            last = kept.first?.id ?? last
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

/// Ends one follower's following between two deliveries: its client hung up, or the server shuts down. A stop
/// that comes before the following begins ends it as it begins.
public final class FollowStop: Sendable {
    private let state = Mutex<(stopped: Bool, signal: AsyncStream<Void>.Continuation?)>((false, nil))

    public init() {}

    public var isStopped: Bool { state.withLock { $0.stopped } }

    public func stop() {
        state.withLock { state in
            state.stopped = true
            state.signal?.finish()
        }
    }

    func attach(_ signal: AsyncStream<Void>.Continuation) {
        state.withLock { state in
            state.signal = signal
            if state.stopped { signal.finish() }
        }
    }
}

private struct AnonymousRequest: Sendable {
    var id: Int64
    var at: Date
    var detail: @Sendable () -> Data
}
