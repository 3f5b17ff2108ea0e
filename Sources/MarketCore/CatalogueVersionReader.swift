import Synchronization

/// Reads the catalogue's version for many callers at once without ever answering one of them with
/// a reading that began before it asked: a caller waits for the next read to start, and every
/// caller that arrived while one read ran shares the read that follows. Under load one query
/// answers a whole batch of requests; alone, a request pays for exactly one.
final class CatalogueVersionReader: Sendable {
    private struct State {
        var reading = false
        var waiting: [CheckedContinuation<Int64, any Error>] = []
    }

    private let read: @Sendable () async throws -> Int64
    private let state = Mutex(State())

    init(read: @escaping @Sendable () async throws -> Int64) {
        self.read = read
    }

    func current() async throws -> Int64 {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.waiting.append(continuation)
                defer { state.reading = true }
                return !state.reading
            }
            if start { Task { await readForWaiting() } }
        }
    }

    /// Reads once for everyone waiting, and again while more arrive.
    private func readForWaiting() async {
        while true {
            let batch = state.withLock { state in
                defer { state.waiting = [] }
                if state.waiting.isEmpty { state.reading = false }
                return state.waiting
            }
            if batch.isEmpty { return }
            let result = await Result { try await read() }
            for waiter in batch { waiter.resume(with: result) }
        }
    }
}
