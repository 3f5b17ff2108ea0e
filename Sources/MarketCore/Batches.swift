import Synchronization

/// Reads for many callers at once without answering any of them with a reading that began before it asked:
/// everyone who arrives while one read runs is answered by the next read, which asks for them all. Under load
/// one query answers a whole batch; alone, a request pays for exactly one.
public final class Batches<Question: Sendable, Answer: Sendable>: Sendable {
    public typealias Delivery = @Sendable (Result<Answer, any Error>) -> Void

    private struct State {
        var reading = false
        var waiting: [(question: Question, deliver: Delivery)] = []
    }

    /// The answers to the questions, one each, in the same order.
    private let read: @Sendable ([Question]) async throws -> [Answer]
    private let state = Mutex(State())

    public init(read: @escaping @Sendable ([Question]) async throws -> [Answer]) { self.read = read }

    public func ask(_ question: Question) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in ask(question) { continuation.resume(with: $0) } }
    }

    /// The same for a caller that does not wait: `deliver` is called once, on whichever thread the read finished.
    public func ask(_ question: Question, _ deliver: @escaping Delivery) {
        let start = state.withLock { state in
            state.waiting.append((question, deliver))
            defer { state.reading = true }
            return !state.reading
        }
        if start { Task { await self.readForWaiting() } }
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
            switch await Result({ try await read(batch.map(\.question)) }) {
            case .success(let answers):
                for (waiting, answer) in zip(batch, answers) { waiting.deliver(.success(answer)) }
            case .failure(let error):
                for waiting in batch { waiting.deliver(.failure(error)) }
            }
        }
    }
}
