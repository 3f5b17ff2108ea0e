import ArgumentParser
import Foundation
import MarketCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Says how far a long command is, on standard error. On a terminal: one line redrawn in place at most four times a
/// second, with what is being done, how much of how much, the rate and the time left. In a pipe, a log or CI (or
/// with `TERM=dumb`): a plain line when a part begins and each time another tenth of it is done. Quiet: nothing.
/// No colour is used, so `NO_COLOR` has nothing to turn off.
final class CommandProgress: Sendable {
    enum Style: Sendable { case redrawn, lines, quiet }

    let style: Style
    private let now: @Sendable () -> ContinuousClock.Instant
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var part: WorkProgress.Part?
        var began = ContinuousClock.now
        var drawn = ContinuousClock.now - .seconds(1)
        /// The tenths of the part said so far, in lines.
        var tenths = -1
        /// Something is drawn on the line and is to be cleared before anything else is written.
        var onLine = false
    }

    /// The style standard error calls for: redrawn on a terminal, lines elsewhere, nothing with `quiet`.
    static func onStandardError(quiet: Bool) -> CommandProgress {
        let terminal = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        return CommandProgress(style: quiet ? .quiet : terminal ? .redrawn : .lines) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    init(
        style: Style, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        write: @escaping @Sendable (String) -> Void
    ) {
        self.style = style
        self.now = now
        self.write = write
    }

    /// Notes how far the work is; cheap enough to be called for every item.
    func report(_ progress: WorkProgress) {
        guard style != .quiet else { return }
        let now = now()
        let text: String? = state.withLock { state in
            if state.part != progress.part {
                (state.part, state.began, state.tenths) = (progress.part, now, -1)
            }
            let elapsed = now - state.began
            switch style {
            case .redrawn:
                let finished = progress.total.map { progress.done >= $0 } ?? false
                guard finished || now - state.drawn >= .milliseconds(250) else { return nil }
                state.drawn = now
                state.onLine = true
                return "\r" + Self.line(progress, elapsed: elapsed) + "\u{1B}[K"
            case .lines:
                let tenth = progress.total.map { $0 > 0 ? progress.done * 10 / $0 : 10 } ?? 0
                guard tenth > state.tenths else { return nil }
                state.tenths = tenth
                return Self.line(progress, elapsed: elapsed) + "\n"
            case .quiet:
                return nil
            }
        }
        if let text { write(text) }
    }

    /// Clears the redrawn line, before the command says what it came to.
    func finish() {
        guard
            state.withLock({ state in
                defer { state.onLine = false }; return state.onLine
            })
        else { return }
        write("\r\u{1B}[K")
    }

    /// "products: 12,000 of 100,000 (12 %), 3,100 a second, about 28 s left".
    static func line(_ progress: WorkProgress, elapsed: Duration) -> String {
        guard let total = progress.total, total > 0 else {
            return progress.done == 0
                ? "\(progress.part.rawValue)…" : "\(progress.part.rawValue): \(grouped(progress.done))"
        }
        var line = "\(progress.part.rawValue): \(grouped(progress.done))"
        line += " of \(grouped(total)) (\(progress.done * 100 / total) %)"
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds >= 0.5, progress.done > 0 else { return line }
        let rate = Double(progress.done) / seconds
        line += ", \(grouped(Int(rate.rounded()))) a second"
        if progress.done < total { line += ", about \(duration(Double(total - progress.done) / rate)) left" }
        return line
    }

    /// 12,000: digits grouped by three, as the command's other lines give numbers.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return String(
            digits.enumerated().flatMap { index, digit in
                index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
            })
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }
}

/// "1 product", "6,028 pictures": a count with its noun, as the commands' last lines give them.
func counted(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(CommandProgress.grouped(count)) \(noun)s"
}

/// `--quiet`, for the commands that show how far they are.
struct QuietOption: ParsableArguments {
    @Flag(help: "Print only errors and the last line, for scripts.") var quiet = false

    /// Runs `work` showing how far it is, with Ctrl-C heard at each step: work stopped so ends the command (status
    /// 130) saying `stopped`, what it left behind.
    func run<T>(
        stopped: String, _ work: (_ progress: @escaping @Sendable (WorkProgress) throws -> Void) async throws -> T
    ) async throws -> T {
        let progress = CommandProgress.onStandardError(quiet: quiet)
        Interruption.listen()
        do {
            let result = try await work { step in
                try Interruption.check()
                progress.report(step)
            }
            progress.finish()
            return result
        } catch is Interruption.Interrupted {
            progress.finish()
            FileHandle.standardError.write(Data("stopped: \(stopped)\n".utf8))
            throw ExitCode(130)
        } catch {
            progress.finish()
            throw CommandFailure(String(describing: error))
        }
    }
}
