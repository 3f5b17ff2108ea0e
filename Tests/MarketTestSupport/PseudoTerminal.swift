import Foundation
import Glibc

/// A pseudo-terminal, for a program that behaves as it does before a person: `terminal` is the side the program
/// writes to (its standard error, say), and what it wrote is read back from the other side.
public final class PseudoTerminal: @unchecked Sendable {
    private let controller: Int32
    public let terminal: Int32

    public init() throws {
        controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var name = [CChar](repeating: 0, count: 128)
        guard controller >= 0, let unlock = Self.unlockpt, unlock(controller) == 0, let named = Self.ptsname,
            named(controller, &name, name.count) == 0
        else { throw RawHTTPError("no pseudo-terminal: \(String(cString: strerror(errno)))") }
        terminal = open(name, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw RawHTTPError("the pseudo-terminal did not open") }
    }

    /// glibc's `unlockpt` and `ptsname_r`, which Swift's Glibc module leaves out.
    private static let unlockpt = dlsym(nil, "unlockpt").map {
        unsafeBitCast($0, to: (@convention(c) (Int32) -> Int32).self)
    }
    private static let ptsname = dlsym(nil, "ptsname_r").map {
        unsafeBitCast($0, to: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
    }

    /// Closes this process's copy of the program's side, once the program has it: reading then ends when the
    /// program has gone.
    public func handedOver() { close(terminal) }

    /// Reads what arrives until `enough` says it is enough, or the program has gone (then all that came).
    public func read(until enough: @escaping @Sendable (String) -> Bool = { _ in false }) async -> String {
        await withCheckedContinuation { continuation in
            Thread { [controller] in
                var received = Data()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !enough(String(decoding: received, as: UTF8.self)) {
                    let count = Glibc.read(controller, &buffer, buffer.count)
                    if count <= 0 { break }
                    received.append(contentsOf: buffer[..<count])
                }
                continuation.resume(returning: String(decoding: received, as: UTF8.self))
            }.start()
        }
    }

    deinit { close(controller) }
}
