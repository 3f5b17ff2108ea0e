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

    /// Listens for Ctrl-C from now on: the handler is in place when this returns, so that no Ctrl-C from the first
    /// line the command shows is lost. It only sets a flag (or ends the command, the second time).
    static func listen() {
        _ = requested.load(ordering: .relaxed)  // made before a signal may read it
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = interrupted
        #else
            action.__sigaction_u.__sa_handler = interrupted
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
    }

    private static let interrupted: @convention(c) (Int32) -> Void = { _ in
        if requested.exchange(true, ordering: .relaxed) { _exit(130) }
    }

    /// Throws `Interrupted` once Ctrl-C was pressed; called between steps of the work.
    static func check() throws { if requested.load(ordering: .relaxed) { throw Interrupted() } }
}
