import MarketHTTPShared
import NIOPosix
import Testing

/// The reads the front desk waits for run on the connection's event loop, where their answers are
/// then made and sent.
@Suite struct LoopExecutorTests {
    @Test func aTaskThatPrefersALoopRunsOnItBeforeAndAfterItWaits() async {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let onLoop = await Task(executorPreference: LoopExecutor.on(loop)) {
            let before = loop.inEventLoop
            // Waits for work on Swift's cooperative threads, and comes back.
            let elsewhere = await Task.detached { loop.inEventLoop }.value
            return [before, elsewhere, loop.inEventLoop]
        }.value
        #expect(onLoop == [true, false, true])
    }
}
