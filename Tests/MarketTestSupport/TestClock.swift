import Foundation
import Synchronization

/// A clock a test moves on by hand, for rules about time (waits, expiry) without waiting.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at `start`, by default the present to the whole second (as stores keep it to the millisecond).
    public init(_ start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
