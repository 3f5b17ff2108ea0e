import Synchronization

/// Reads the catalogue's version for many callers at once without ever answering one of them with
/// a reading that began before it asked: a caller waits for the next read to start, and every
/// caller that arrived while one read ran shares the read that follows. Under load one query
/// answers a whole batch of requests; alone, a request pays for exactly one.
final class CatalogueVersionReader: Sendable {
    typealias Delivery = @Sendable (Result<Int64, any Error>) -> Void

    private struct State {
        var reading = false
        var waiting: [Delivery] = []
    }

    private let read: @Sendable () async throws -> Int64
    private let state = Mutex(State())

    init(read: @escaping @Sendable () async throws -> Int64) {
        self.read = read
    }

    func current() async throws -> Int64 {
        try await withCheckedThrowingContinuation { continuation in
            current { continuation.resume(with: $0) }
        }
    }

    /// The same, for a caller that cannot wait in a task (a network event loop): `deliver` is
    /// called once, on whichever thread the read finished.
    func current(_ deliver: @escaping Delivery) {
        let start = state.withLock { state in
            state.waiting.append(deliver)
            defer { state.reading = true }
            return !state.reading
        }
        if start { Task { await readForWaiting() } }
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
            for deliver in batch { deliver(result) }
        }
    }
}
