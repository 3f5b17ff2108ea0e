import Foundation
import Synchronization

/// A text about the current second (an answer's `Date`, a log line's time), worked out once a
/// second however often it is asked for: formatting a time costs more than the request it is for.
public final class TextOfTheSecond: Sendable {
    private let make: @Sendable (time_t) -> String
    private let written = Mutex((second: time_t(-1), text: ""))

    public init(_ make: @escaping @Sendable (time_t) -> String) {
        self.make = make
    }

    public func now() -> String {
        let second = time(nil)
        return written.withLock { written in
            if written.second != second { written = (second, make(second)) }
            return written.text
        }
    }
}
