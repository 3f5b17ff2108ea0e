import Foundation

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
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (out, err) = await Thread.reading(output, errors)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: out, errors: err)
    }

    /// Starts a long-running command such as `serve`.
    public static func start(_ arguments: [String]) throws -> RunningServer {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        return RunningServer(process: process, log: log.fileHandleForReading)
    }
}

/// A server process and its log.
public final class RunningServer: @unchecked Sendable {
    let process: Process
    let log: FileHandle

    init(process: Process, log: FileHandle) {
        self.process = process
        self.log = log
    }

    /// Reads the log until the server says where it listens.
    public func listeningPort() async throws -> Int {
        let handle = log
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                var seen = ""
                while true {
                    let chunk = handle.availableData
                    guard !chunk.isEmpty else {
                        continuation.resume(throwing: RawHTTPError("the server exited before listening:\n\(seen)"))
                        return
                    }
                    seen += String(decoding: chunk, as: UTF8.self)
                    if let match = seen.firstMatch(of: /open at http:\/\/127\.0\.0\.1:(\d+)/), let port = Int(match.1) {
                        continuation.resume(returning: port)
                        return
                    }
                }
            }.start()
        }
    }

    /// Sends SIGTERM and returns the exit status.
    public func terminate() async throws -> Int32 {
        process.terminate()
        let process = process
        return await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
    }
}

extension Thread {
    /// Reads two pipes to their ends on threads of their own, so neither can fill up and block.
    static func reading(_ first: Pipe, _ second: Pipe) async -> (String, String) {
        async let a = read(first)
        async let b = read(second)
        return await (a, b)
    }

    private static func read(_ pipe: Pipe) async -> String {
        await withCheckedContinuation { continuation in
            Thread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
    }
}
