import NIOCore
import Synchronization

/// Runs tasks on a network event loop rather than on Swift's cooperative threads. A read that
/// waits for the database goes on, and hands its answer to a connection, on a thread that is busy
/// anyway under load, instead of waking a cooperative thread at each step of its way.
package final class LoopExecutor: TaskExecutor {
    private let loop: any EventLoop

    /// One executor per loop, kept as long as the process runs, as the tasks that prefer it need.
    private static let executors = Mutex<[ObjectIdentifier: LoopExecutor]>([:])

    private init(_ loop: any EventLoop) {
        self.loop = loop
    }

    /// The executor that runs tasks on `loop`.
    package static func on(_ loop: any EventLoop) -> LoopExecutor {
        executors.withLock { executors in
            if let executor = executors[ObjectIdentifier(loop)] { return executor }
            let executor = LoopExecutor(loop)
            executors[ObjectIdentifier(loop)] = executor
            return executor
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}
