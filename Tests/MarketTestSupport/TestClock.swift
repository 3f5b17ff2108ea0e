import Foundation
import Synchronization

/// A clock a test moves on by hand, for rules about time (waits, expiry) without waiting.
public final class TestClock: Sendable {
    private let current: Mutex<Date>
    private let start: (date: Date, instant: ContinuousClock.Instant)

    /// Starts at `start`, by default the present to the whole second (as stores keep it to the millisecond).
    public init(_ start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        current = Mutex(start)
        self.start = (start, .now)
    }

    public var now: Date { current.withLock { $0 } }

    /// The same time as it passes, for what measures durations rather than dates.
    public var elapsed: ContinuousClock.Instant { start.instant + .seconds(now.timeIntervalSince(start.date)) }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
