import Foundation
import Synchronization

/// Bounds the pictures decoded and encoded at once across all requests: one step per core, and at most 16
/// pictures per core waiting behind them. A request whose pictures would go beyond that is refused with 503 and
/// Retry-After at once, instead of piling up threads while reads wait for the cores.
///
/// Waiting steps run in the order their requests were admitted, so that one request's pictures finish before the
/// next's begin and a create's decoded pictures do not wait in memory behind another create.
final class ImageWork: Sendable {
    private struct State {
        var running = 0
        var admitted = 0
        var nextTurn: UInt64 = 0
        var waiting: [(turn: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    let slots: Int
    let queueLength: Int
    private let state = Mutex(State())

    init(slots: Int = ProcessInfo.processInfo.activeProcessorCount, queueLength: Int? = nil) {
        self.slots = max(1, slots)
        self.queueLength = queueLength ?? 16 * self.slots
    }

    /// How many steps are waiting for a slot.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Admits a request's `pictures` and runs `body`, whose steps take their turn in the slots.
    func admitting<T>(_ pictures: Int, _ body: (ImageSteps) async throws -> T) async throws -> T {
        let turn = state.withLock { state -> UInt64? in
            guard state.admitted + pictures <= slots + queueLength else { return nil }
            state.admitted += pictures
            state.nextTurn += 1
            return state.nextTurn
        }
        guard let turn else { throw MarketError.unavailable(.tooManyPictures, retryAfter: 2) }
        defer { state.withLock { $0.admitted -= pictures } }
        return try await body(ImageSteps(work: self, turn: turn))
    }

    /// Runs `step` in a free slot, waiting for one behind the steps of earlier turns if need be.
    fileprivate func run<T: Sendable>(turn: UInt64, _ step: () async throws -> T) async throws -> T {
        await withCheckedContinuation { continuation in
            let admitted = state.withLock { state -> Bool in
                if state.running < slots {
                    state.running += 1
                    return true
                }
                let place = state.waiting.firstIndex { $0.turn > turn } ?? state.waiting.endIndex
                state.waiting.insert((turn, continuation), at: place)
                return false
            }
            if admitted { continuation.resume() }
        }
        defer {
            // Hands the slot to the first in the queue, or frees it.
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if state.waiting.isEmpty {
                    state.running -= 1
                    return nil
                }
                return state.waiting.removeFirst().continuation
            }
            next?.resume()
        }
        return try await step()
    }
}

/// Where an image processor does its blocking work, one step at a time on threads of their own: in the market's image
/// slots, or, for tools and tests, at once. A step must not wait for another; independent steps may run side by side.
public struct ImageSteps: Sendable {
    fileprivate let work: ImageWork?
    fileprivate let turn: UInt64

    /// Steps run at once, each on a thread of its own.
    public static let unbounded = ImageSteps(work: nil, turn: 0)

    public func run<T: Sendable>(_ step: @escaping @Sendable () throws -> T) async throws -> T {
        guard let work else { return try await offload(step) }
        return try await work.run(turn: turn) { try await offload(step) }
    }
}
