import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import Synchronization
#endif

/// URLSession transfers whose caller may be cancelled at any moment. On Apple platforms a cancelled caller cancels its
/// transfer. On Linux, cancelling a transfer just as its answer arrives can deadlock inside FoundationNetworking, so
/// there the transfer runs in a task that is never cancelled: the caller stops waiting and a late answer is dropped.
/// FoundationNetworking also ignores a request's own timeout, so there the wait is bounded here.
enum Transfer {
    static func data(for request: URLRequest, in session: URLSession) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            try await abandoning(after: .seconds(request.timeoutInterval)) { try await session.data(for: request) }
        #else
            try await session.data(for: request)
        #endif
    }

    #if canImport(FoundationNetworking)
        /// Runs `work` in an unstructured task; the caller is resumed by whichever comes first: the
        /// work's result, the caller's cancellation, or `URLError(.timedOut)` once `timeout` has passed.
        static func abandoning<T: Sendable>(
            after timeout: Duration, _ work: @escaping @Sendable () async throws -> T
        ) async throws -> T {
            let waiter = Waiter<T>()
            let alarm = Task {
                try await Task.sleep(for: timeout)
                waiter.resume(with: .failure(URLError(.timedOut)))
            }
            defer { alarm.cancel() }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    waiter.wait(with: continuation)
                    Task { waiter.resume(with: await Result(catching: work)) }
                }
            } onCancel: {
                waiter.resume(with: .failure(CancellationError()))
            }
        }
    #endif
}

#if canImport(FoundationNetworking)

    /// One continuation, resumed exactly once by the first result to arrive; one arriving before it is kept for it.
    private final class Waiter<T: Sendable>: Sendable {
        private enum State {
            case empty
            case waiting(CheckedContinuation<T, any Error>)
            case finished(Result<T, any Error>)
            case done
        }

        private let state = Mutex(State.empty)

        func wait(with continuation: CheckedContinuation<T, any Error>) {
            let early: Result<T, any Error>? = state.withLock { state in
                guard case .finished(let result) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .done
                return result
            }
            if let early { continuation.resume(with: early) }
        }

        func resume(with result: Result<T, any Error>) {
            let continuation: CheckedContinuation<T, any Error>? = state.withLock { state in
                switch state {
                case .empty:
                    state = .finished(result)
                    return nil
                case .waiting(let continuation):
                    state = .done
                    return continuation
                case .finished, .done:
                    return nil
                }
            }
            continuation?.resume(with: result)
        }
    }

    extension Result where Failure == any Error {
        init(catching body: () async throws -> Success) async {
            do { self = .success(try await body()) } catch { self = .failure(error) }
        }
    }
#endif
