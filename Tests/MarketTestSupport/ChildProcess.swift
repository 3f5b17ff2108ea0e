import Foundation
import Glibc

/// A program a test starts. Foundation's `Process.run()` on Linux lists `/proc/self/fd` copying
/// each entry's whole 256-byte name, which reads past glibc's buffer and now and then crashes a
/// process holding a thousand or so descriptors (swift-corelibs-foundation#5472, still in Swift
/// 6.3.1): a fresh-clone CI run lost the whole suite to it. This starts programs with `posix_spawn`,
/// handing over three descriptors and closing every other one in the child.
///
/// Each program runs under `setpriv --pdeathsig TERM`, started from one thread that lives as long
/// as the test process (`Launcher`): the kernel stops it when that thread ends, so a test run that
/// crashes or is killed leaves no server behind. The signal follows the thread that started the
/// program, not the process: started from one of Swift's worker threads, which come and go, it
/// would stop programs at random.
public final class ChildProcess: @unchecked Sendable {
    public let id: pid_t
    private let lock = NSLock()
    private var status: Int32?

    /// `input`, `output` and `errors` become the program's descriptors 0, 1 and 2; nil is
    /// /dev/null. `environment` nil is this process's.
    public init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, input: Int32? = nil,
        output: Int32? = nil, errors: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (given, standard) in [(input, STDIN_FILENO), (output, STDOUT_FILENO), (errors, STDERR_FILENO)] {
            if let given {
                posix_spawn_file_actions_adddup2(&actions, given, standard)
            } else {
                posix_spawn_file_actions_addopen(
                    &actions, standard, "/dev/null", standard == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            }
        }
        guard let closeFrom = Self.closeFrom, closeFrom(&actions, 3) == 0 else {
            throw RawHTTPError("posix_spawn cannot close the other descriptors here")
        }
        let argv = ([Self.setpriv, "--pdeathsig", "TERM", path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let pairs = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0)=\($1)") } + [nil]
        defer { pairs.forEach { free($0) } }
        let (id, failure) = Launcher.shared.run {
            var id = pid_t()
            let failure = posix_spawn(&id, Self.setpriv, &actions, nil, argv, pairs)
            return (id, failure)
        }
        guard failure == 0 else { throw RawHTTPError("could not start \(path): \(String(cString: strerror(failure)))") }
        self.id = id
    }

    private static let setpriv = "/usr/bin/setpriv"

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module leaves out.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }

    /// Waits on this thread until the program ends: its exit code, or the signal that ended it.
    @discardableResult
    public func waitForExit() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(id, &raw, 0) == -1 && errno == EINTR {}
        let ended = Self.code(raw)
        status = ended
        return ended
    }

    /// Waits on a thread of its own.
    public func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.waitForExit()) }.start()
        }
    }

    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard status == nil else { return false }
        var raw: Int32 = 0
        guard waitpid(id, &raw, WNOHANG) == id else { return true }
        status = Self.code(raw)
        return false
    }

    public func signal(_ signal: Int32) {
        kill(id, signal)
    }

    private static func code(_ raw: Int32) -> Int32 {
        raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }
}

/// One thread for the whole test process that starts every program (see `ChildProcess`).
private final class Launcher: @unchecked Sendable {
    static let shared = Launcher()
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }.start()
    }

    /// Runs `body` on the launcher's thread and waits for it.
    func run<T>(_ body: @escaping () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        condition.lock()
        jobs.append {
            result = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return result!
    }
}
