import Foundation
import Glibc
import MarketDemo

/// The built `openmarket` executable, found beside the test bundle.
public enum OpenMarketBinary {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var errors: String
    }

    public static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("openmarket")
    }

    /// Runs the command to its end.
    public static func run(_ arguments: [String]) async throws -> Result {
        let output = Pipe()
        let errors = Pipe()
        let process = try ChildProcess(
            url.path, arguments, output: output.fileHandleForWriting.fileDescriptor,
            errors: errors.fileHandleForWriting.fileDescriptor)
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let (out, err) = await Thread.reading(output, errors)
        return Result(status: await process.exitStatus(), output: out, errors: err)
    }

    /// A market serving `dataDir`, where `vendor` was registered first with its identifier and secret.
    public static func serve(with vendor: DemoCatalogue.DemoVendor, in dataDir: String) async throws -> RunningServer {
        let added = try await run([
            "vendors", "add", "--data-dir", dataDir, "--name", vendor.name, "--identifier", vendor.identifier,
            "--secret", vendor.secret,
        ])
        guard added.status == 0 else { throw RawHTTPError("vendors add failed: \(added.errors)") }
        return try start(["serve", "--port", "0", "--data-dir", dataDir])
    }

    /// Starts a long-running command such as `serve`; its log is what it writes, to both outputs unless `errors`
    /// (a descriptor of the test's) takes its standard error.
    public static func start(
        _ arguments: [String], environment: [String: String] = [:], errors: Int32? = nil
    ) throws -> RunningServer {
        let log = Pipe()
        let writing = log.fileHandleForWriting.fileDescriptor
        let process = try ChildProcess(
            url.path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: writing, errors: errors ?? writing)
        try log.fileHandleForWriting.close()
        return RunningServer(process: process, log: log.fileHandleForReading)
    }
}

/// A server process whose log is collected as it is written.
public final class RunningServer: @unchecked Sendable {
    private let process: ChildProcess
    private let condition = NSCondition()
    private var log = ""
    private var logEnded = false

    init(process: ChildProcess, log: FileHandle) {
        self.process = process
        Thread { [self] in
            while true {
                let chunk = log.availableData
                condition.lock()
                if chunk.isEmpty { logEnded = true } else { self.log += String(decoding: chunk, as: UTF8.self) }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }.start()
    }

    /// Everything the server has logged so far.
    public var logText: String {
        condition.lock()
        defer { condition.unlock() }
        return log
    }

    /// Waits until the log matches the regular expression `pattern`, and returns its first capture.
    public func waitForLog(_ pattern: String) async throws -> String {
        let regex = try Regex(pattern)
        return try await withCheckedThrowingContinuation { continuation in
            nonisolated(unsafe) let regex = regex
            Thread { [self] in
                condition.lock()
                defer { condition.unlock() }
                while true {
                    if let match = log.firstMatch(of: regex) {
                        return continuation.resume(returning: match.output[1].substring.map(String.init) ?? "")
                    }
                    if logEnded {
                        return continuation.resume(throwing: RawHTTPError("the log ended without it:\n\(log)"))
                    }
                    condition.wait()
                }
            }.start()
        }
    }

    public func listeningPort() async throws -> Int {
        Int(try await waitForLog(#"open at http://127\.0\.0\.1:(\d+)"#)) ?? 0
    }

    /// Ends the server at once, as a crash or a power cut would: SIGKILL, nothing finished.
    public func kill() async -> Int32 {
        process.signal(SIGKILL)
        return await exitStatus()
    }

    /// Sends SIGTERM without waiting.
    public func signalTerminate() { process.signal(SIGTERM) }

    /// Sends SIGTERM and returns the exit status.
    public func terminate() async throws -> Int32 {
        process.signal(SIGTERM)
        return await exitStatus()
    }

    /// The exit status, once the log is read to its end: the reading thread may still hold the server's
    /// last lines when the process is gone.
    public func exitStatus() async -> Int32 {
        let status = await process.exitStatus()
        await withCheckedContinuation { continuation in
            Thread { [self] in
                condition.lock()
                while !logEnded { condition.wait() }
                condition.unlock()
                continuation.resume()
            }.start()
        }
        return status
    }

    /// The memory the server holds now (its resident set, `VmRSS`), in bytes.
    public func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.id)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ")[1])
        else { throw RawHTTPError("no VmRSS for process \(process.id)") }
        return kilobytes * 1024
    }
}

extension Thread {
    /// Reads two pipes to their ends at once, so neither can fill up and block.
    static func reading(_ first: Pipe, _ second: Pipe) async -> (String, String) {
        async let a = first.readToEnd()
        async let b = second.readToEnd()
        return await (String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
    }
}

extension Pipe {
    /// Everything written to the pipe until its writers close it, read on a thread of its own: a
    /// blocking read on one of the few threads Swift's tasks share would stall every test meanwhile.
    public func readToEnd() async -> Data {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.fileHandleForReading.readDataToEndOfFile()) }.start()
        }
    }
}
