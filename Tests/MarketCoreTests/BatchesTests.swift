import Synchronization
import Testing

@testable import MarketCore

/// Many callers share one read, but none is answered by a read that began before it asked: that is
/// what keeps a version read for many from hiding a change just made.
@Suite struct BatchesTests {
    /// A store whose version read can be held open, to let callers arrive while it runs.
    final class HeldStore: Sendable {
        let version = Atomic<Int64>(1)
        let reads = Atomic<Int>(0)
        let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation
        let release: AsyncStream<Void>
        private let releaseContinuation: AsyncStream<Void>.Continuation

        init() {
            (started, startedContinuation) = AsyncStream.makeStream()
            (release, releaseContinuation) = AsyncStream.makeStream()
        }

        func read() async -> Int64 {
            let seen = version.load(ordering: .sequentiallyConsistent)
            reads.add(1, ordering: .sequentiallyConsistent)
            startedContinuation.yield()
            var releases = release.makeAsyncIterator()
            _ = await releases.next()
            return seen
        }

        func letOneReadFinish() { releaseContinuation.yield() }
    }

    @Test func aCallerWhoArrivesDuringAReadWaitsForTheNextOneAndSharesIt() async throws {
        let store = HeldStore()
        let reader = Batches<Void, Int64> { asked in
            let version = await store.read()
            return asked.map { version }
        }
        var starts = store.started.makeAsyncIterator()

        let early = Task { try await reader.ask(()) }
        _ = await starts.next()  // the first read has seen version 1 and is held
        store.version.store(2, ordering: .sequentiallyConsistent)  // a write commits meanwhile
        let late = (0..<5).map { _ in Task { try await reader.ask(()) } }
        // The late callers are queued once the first read lets go and the second begins.
        store.letOneReadFinish()
        #expect(try await early.value == 1)
        _ = await starts.next()
        store.letOneReadFinish()
        for caller in late { #expect(try await caller.value == 2, "never the read that began before it asked") }
        #expect(store.reads.load(ordering: .sequentiallyConsistent) == 2, "five callers, one read")
    }

    @Test func questionsAskedDuringAReadAreReadTogetherAndEachGetsItsOwnAnswer() async throws {
        let (started, startedContinuation) = AsyncStream<[Int64]>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let batches = Batches<Int64, String?> { ids in
            startedContinuation.yield(ids)
            var releases = release.makeAsyncIterator()
            _ = await releases.next()
            return ids.map { $0 == 404 ? nil : "product \($0)" }
        }
        var starts = started.makeAsyncIterator()
        let first = Task { try await batches.ask(1) }
        #expect(await starts.next() == [1])
        // Asked through callbacks, so that all four are waiting before the first read ends.
        let (answers, answered) = AsyncStream<(Int64, String?)>.makeStream()
        for id: Int64 in [2, 404, 3, 2] {
            batches.ask(id) { answered.yield((id, try? $0.get())) }
        }
        releaseContinuation.yield()
        #expect(try await first.value == "product 1")
        let second = await starts.next()
        #expect(second.map { $0.sorted() } == [2, 2, 3, 404], "one read for everyone who asked meanwhile")
        releaseContinuation.yield()
        var received = 0
        for await (id, answer) in answers {
            #expect(answer == (id == 404 ? nil : "product \(id)"))
            received += 1
            if received == 4 { break }
        }
    }
}
