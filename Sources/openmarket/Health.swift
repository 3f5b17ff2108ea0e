import ArgumentParser
import Foundation
import MarketApp

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A container's health check: asks the market's `/readyz` and exits 0 only when it is ready.
struct Health: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say whether a running market is ready (its database and pictures answer); exit 0 if so, else 1.",
        example: "openmarket health --data-dir ./data",
        "openmarket health --server http://127.0.0.1:8081")

    @Option(help: "The folder the market serves; its address is read from there (OPENMARKET_DATA_DIR).")
    var dataDir: String = Environment.value("OPENMARKET_DATA_DIR", default: "./data")

    @Option(help: "Ask this address instead (default: the folder's market, else 127.0.0.1 on OPENMARKET_PORT).")
    var server: String?

    func run() async throws {
        let origin =
            server ?? ServingAddress.read(from: URL(fileURLWithPath: dataDir, isDirectory: true))?.origin
            ?? "http://127.0.0.1:\(Environment.value("OPENMARKET_PORT", default: 8080))"
        guard let url = URL(string: origin + "/readyz") else {
            throw ValidationError("--server needs a URL such as http://127.0.0.1:8080, not \(origin)")
        }
        var request = URLRequest(url: url, timeoutInterval: 4)
        request.setValue("openmarket health", forHTTPHeaderField: "User-Agent")
        let answer: (Data, URLResponse)
        do {
            answer = try await URLSession.shared.data(for: request)
        } catch {
            throw CommandFailure("no market answers at \(origin): \(error.localizedDescription)")
        }
        let status = (answer.1 as? HTTPURLResponse)?.statusCode ?? 0
        print("\(origin): \(status) \(String(decoding: answer.0, as: UTF8.self))")
        guard status == 200 else { throw ExitCode.failure }
    }
}
