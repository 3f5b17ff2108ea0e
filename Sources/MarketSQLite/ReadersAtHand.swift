import Foundation
import GRDB
import MarketCore
import Synchronization

/// Connections of their own for short reads on the caller's thread. A read through the pool hands
/// its work to a reader thread and back, which costs more than reading one product or one page
/// (a random product's answer took 60 % more of a core). The pool's readers cannot simply be
/// used on a task's thread instead: one held by a suspended task comes back only when a task
/// thread resumes it, so task threads waiting for one could wait forever. These are held only by
/// a thread in the middle of a read, and a read that finds none free goes through the pool.
final class ReadersAtHand: Sendable {
    private struct State {
        var free: [DatabaseQueue] = []
        var opened = 0
    }

    private let path: String
    private let limit: Int
    private let state = Mutex(State())

    init(path: String, limit: Int = 2 * ProcessInfo.processInfo.activeProcessorCount) {
        self.path = path
        self.limit = limit
    }

    private enum Taken {
        case reader(DatabaseQueue)
        case opening
        case none
    }

    /// A free connection, opened now if needed; nil when none is free and no more may open.
    func take() -> DatabaseQueue? {
        let taken = state.withLock { state -> Taken in
            if let reader = state.free.popLast() { return .reader(reader) }
            guard state.opened < limit else { return .none }
            state.opened += 1
            return .opening
        }
        switch taken {
        case .reader(let reader): return reader
        case .none: return nil
        case .opening:
            let configuration = SQLiteMarketStore.configuration(readonly: true)
            if let reader = try? DatabaseQueue(path: path, configuration: configuration) { return reader }
            state.withLock { $0.opened -= 1 }
            return nil
        }
    }

    func giveBack(_ reader: DatabaseQueue) {
        state.withLock { $0.free.append(reader) }
    }

    /// `body` in a read transaction of `reader`, on this thread: not async, so that it is the
    /// queue's blocking read that is called. A body that runs one statement (`single`) runs
    /// without one: a statement reads one state of the database by itself, and GRDB's read
    /// transaction costs SQLite four statements more.
    static func read<T>(_ reader: DatabaseQueue, single: Bool = false, _ body: (Database) throws -> T) throws -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { MarketTimers.databaseReads.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start)) }
        return try single ? reader.inDatabase(body) : reader.read(body)
    }
}
