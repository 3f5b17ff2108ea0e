import Foundation
import Synchronization

/// Bounds the pictures being decoded and encoded at once across all requests: one per core, and
/// a queue behind them of 16 per core (a few seconds of work; the pictures waiting are
/// already in memory, within the server's body budget). Beyond that a request is refused with 503
/// and Retry-After at once, instead of piling up threads while reads wait for the cores.
final class ImageWork: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let slots: Int
    let queueLength: Int
    private let state = Mutex(State())

    init(slots: Int = ProcessInfo.processInfo.activeProcessorCount, queueLength: Int? = nil) {
        self.slots = max(1, slots)
        self.queueLength = queueLength ?? 16 * self.slots
    }

    /// How many are waiting for a slot.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Runs `work` in a free slot, waiting in the queue for one if need be.
    func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try await takeSlot()
        defer { releaseSlot() }
        return try await work()
    }

    private func takeSlot() async throws {
        enum Admission { case now, queued, refused }
        let admission = state.withLock { state -> Admission in
            if state.running < slots {
                state.running += 1
                return .now
            }
            return state.waiting.count < queueLength ? .queued : .refused
        }
        switch admission {
        case .now:
            return
        case .refused:
            throw MarketError(
                .unavailable, "the market is processing too many pictures just now; try again in a moment",
                retryAfter: 2)
        case .queued:
            await withCheckedContinuation { continuation in
                let admitted = state.withLock { state -> Bool in
                    // A slot may have come free since the first look.
                    if state.running < slots {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if admitted { continuation.resume() }
            }
        }
    }

    /// Hands the slot to the first in the queue, or frees it.
    private func releaseSlot() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
