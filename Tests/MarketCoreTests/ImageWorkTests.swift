import Dispatch
import Testing

@testable import MarketCore

/// Pictures are processed in as many slots as there are cores, a bounded queue waits behind them,
/// and beyond it a request is refused at once with 503 and Retry-After. Waiting steps go in the
/// order their requests came.
@Suite struct ImageWorkTests {
    @Test func overTheQueueARequestIsRefusedAtOnceAndTheQueuedOneRunsWhenASlotFrees() async throws {
        let work = ImageWork(slots: 1, queueLength: 1)
        let (started, starting) = AsyncStream<Int>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let running = Task {
            try await work.admitting(1) { steps in
                try await steps.run {
                    starting.yield(1)
                    release.wait()
                    return 1
                }
            }
        }
        var starts = started.makeAsyncIterator()
        #expect(await starts.next() == 1)
        let queued = Task {
            try await work.admitting(1) { steps in
                try await steps.run {
                    starting.yield(2)
                    return 2
                }
            }
        }
        while work.waiting < 1 { await Task.yield() }
        let refusal = await #expect(throws: MarketError.self) { try await work.admitting(1) { _ in 3 } }
        #expect(refusal?.kind == .unavailable)
        #expect(refusal?.retryAfter == 2)
        release.signal()
        #expect(try await running.value == 1)
        #expect(await starts.next() == 2)
        #expect(try await queued.value == 2)
    }

    /// A create's second steps (its encodings) do not wait behind the next create's first.
    @Test func anEarlierRequestsStepsGoBeforeALaterRequestsSteps() async throws {
        let work = ImageWork(slots: 1)
        let (ran, running) = AsyncStream<String>.makeStream()
        let (started, starting) = AsyncStream<Void>.makeStream()
        let (laterQueued, queueing) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let earlier = Task {
            try await work.admitting(1) { steps in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await steps.run {
                            starting.yield()
                            release.wait()
                        }
                    }
                    for await _ in laterQueued { break }
                    group.addTask { try await steps.run { _ = running.yield("earlier") } }
                    try await group.waitForAll()
                }
            }
        }
        var starts = started.makeAsyncIterator()
        await starts.next()
        let later = Task {
            try await work.admitting(1) { steps in
                try await steps.run { _ = running.yield("later") }
            }
        }
        while work.waiting < 1 { await Task.yield() }
        queueing.yield()
        while work.waiting < 2 { await Task.yield() }
        release.signal()
        try await earlier.value
        try await later.value
        var runs = ran.makeAsyncIterator()
        #expect(await [runs.next(), runs.next()] == ["earlier", "later"])
    }
}
