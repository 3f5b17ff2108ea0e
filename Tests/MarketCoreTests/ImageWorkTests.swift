import Testing

@testable import MarketCore

/// Pictures are processed in as many slots as there are cores, a bounded queue waits behind them,
/// and beyond it a request is refused at once with 503 and Retry-After.
@Suite struct ImageWorkTests {
    @Test func overTheQueueARequestIsRefusedAtOnceAndTheQueuedOneRunsWhenASlotFrees() async throws {
        let work = ImageWork(slots: 1, queueLength: 1)
        let (started, starting) = AsyncStream<Int>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let running = Task {
            try await work.run {
                starting.yield(1)
                for await _ in release { break }
                return 1
            }
        }
        var starts = started.makeAsyncIterator()
        #expect(await starts.next() == 1)
        let queued = Task {
            try await work.run {
                starting.yield(2)
                return 2
            }
        }
        while work.waiting < 1 { await Task.yield() }
        let refusal = await #expect(throws: MarketError.self) { try await work.run { 3 } }
        #expect(refusal?.kind == .unavailable)
        #expect(refusal?.retryAfter == 2)
        releasing.yield()
        #expect(try await running.value == 1)
        #expect(await starts.next() == 2)
        #expect(try await queued.value == 2)
    }
}
