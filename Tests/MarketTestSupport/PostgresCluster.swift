import Foundation

/// A PostgreSQL cluster of one test's own, made and driven by the project's `scripts/postgres`,
/// for tests that stop the database under a running server.
public struct PostgresCluster: Sendable {
    public let folder: URL
    public let port: Int
    /// The administrator's URL; the cluster's `postgres` database serves as a market.
    public let url: String

    public static func start() async throws -> PostgresCluster {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString)")
        let port = try FreePort.pick()
        let url = try await script(["start", folder.path, String(port)])
        return PostgresCluster(folder: folder, port: port, url: url.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Stops the cluster as a crash would (`immediate`), or cleanly.
    public func stop(immediately: Bool = false) async throws {
        _ = try await Self.script(["stop", folder.path, immediately ? "immediate" : "fast"])
    }

    /// Starts the stopped cluster again on its port.
    public func restart() async throws {
        _ = try await Self.script(["start", folder.path, String(port)])
    }

    /// Stops the cluster and removes its files.
    public func remove() async {
        try? await stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `scripts/postgres`. Its output goes to a file, not a pipe: the server it starts lives
    /// on and would hold a pipe open for good.
    private static func script(_ arguments: [String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pg-script-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let file = try FileHandle(forWritingTo: output)
        let process = try ChildProcess(
            LoadBalancer.repository.appendingPathComponent("scripts/postgres").path, arguments,
            output: file.fileDescriptor, errors: file.fileDescriptor)
        try file.close()
        let status = await process.exitStatus()
        let text = try String(contentsOf: output, encoding: .utf8)
        guard status == 0 else { throw RawHTTPError("scripts/postgres \(arguments[0]) failed: \(text)") }
        return text
    }
}
