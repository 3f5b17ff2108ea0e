import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for a command that writes: the first asks the work to stop at its next step (`check()` throws), so that it
/// leaves nothing half-written that a later run would trust and says so; a second ends the command at once.
enum Interruption {
    struct Interrupted: Error {}

    private static let requested = Atomic<Bool>(false)
    /// Kept for as long as the command runs: the source stops listening once released.
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    /// Listens for Ctrl-C from now on.
    static func listen() {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler { if requested.exchange(true, ordering: .relaxed) { exit(130) } }
        source.resume()
        Self.source = source
    }

    /// Throws `Interrupted` once Ctrl-C was pressed; called between steps of the work.
    static func check() throws { if requested.load(ordering: .relaxed) { throw Interrupted() } }
}
