import Dispatch
import Foundation
import MarketCore
import Synchronization

/// Writes log lines from a queue of its own, gathering what comes within a hundredth of a second into one write, so
/// that a request never waits for the terminal or a pipe. Lines keep their order; `flush()` writes the rest.
final class LogOutput: Sendable {
    static let standardOutput = LogOutput(descriptor: STDOUT_FILENO)
    static let standardError = LogOutput(descriptor: STDERR_FILENO)

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "openmarket.log")
    private let pending = Mutex((bytes: [UInt8](), draining: false))

    private init(descriptor: Int32) { self.descriptor = descriptor }

    func write(_ line: String) { write { $0.append(contentsOf: line.utf8) } }

    /// Writes what `line` appends to the bytes waiting: no string is made for a line of several parts.
    func write(_ line: (inout [UInt8]) -> Void) {
        let start = pending.withLock { pending in
            line(&pending.bytes)
            defer { pending.draining = true }
            return !pending.draining
        }
        if start { queue.asyncAfter(deadline: .now() + .milliseconds(10)) { self.drain() } }
    }

    func flush() { queue.sync { drain() } }

    private func drain() {
        while true {
            let bytes = pending.withLock { pending in
                defer { pending.bytes.removeAll(keepingCapacity: true) }
                if pending.bytes.isEmpty { pending.draining = false }
                return pending.bytes
            }
            if bytes.isEmpty { return }
            bytes.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    if count > 0 {
                        written += count
                    } else if count == 0 || errno != EINTR {
                        return  // nowhere to write to (a closed pipe): the log is lost, not the server.
                    }
                }
            }
        }
    }
}
