import ArgumentParser
import Foundation
import MarketModel
import OpenMarketKit

/// How the client commands reach a market and who they sell as.
struct ClientOptions: ParsableArguments {
    @Option(help: "The market's address (OPENMARKET_SERVER).")
    var server: String = Environment.value("OPENMARKET_SERVER", default: "http://127.0.0.1:8080")

    @Option(help: "Your vendor identifier, for changes (OPENMARKET_IDENTIFIER).")
    var identifier: String = Environment.value("OPENMARKET_IDENTIFIER", default: "")

    @Option(help: "Your vendor secret, for changes (OPENMARKET_SECRET).")
    var secret: String = Environment.value("OPENMARKET_SECRET", default: "")

    @Flag(help: "Print the market's JSON instead of a table.")
    var json = false

    func client() throws -> OpenMarketClient {
        guard let url = URL(string: server), url.scheme != nil else {
            throw ArgumentParser.ValidationError("--server needs a URL such as http://127.0.0.1:8080, not \(server)")
        }
        let credentials =
            identifier.isEmpty || secret.isEmpty ? nil : VendorCredentials(identifier: identifier, secret: secret)
        // A person waits for the command anyway, and `products add` may upload 50 MB of pictures:
        // an app's 15 seconds would give up on a slow link or a busy market too soon.
        return OpenMarketClient(baseURL: url, credentials: credentials, timeout: .seconds(120))
    }

    /// Runs a call and prints its answer: the JSON with --json, else `text` of it decoded; errors say what to fix.
    func show<T: Decodable>(_ text: (T) -> String, _ call: (OpenMarketClient) async throws -> Data) async throws {
        let client = try self.client()
        let json: Data
        do {
            json = try await call(client)
        } catch let error as OpenMarketError {
            throw CommandFailure(Self.explain(error, server: server))
        }
        guard !self.json else {
            let object = try JSONSerialization.jsonObject(with: json)
            let pretty = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            return print(String(decoding: pretty, as: UTF8.self))
        }
        try print(text(client.decode(json)))
    }

    static func explain(_ error: OpenMarketError, server: String) -> String {
        switch error {
        case .transport(let reason), .unreachable(let reason):
            "cannot reach the market at \(server) (\(reason)); is `openmarket serve` running there? (--server)"
        case .offline, .timedOut: "\(error.description) (--server \(server))"
        case .missingCredentials:
            "this changes the market: give --identifier and --secret (or OPENMARKET_IDENTIFIER and OPENMARKET_SECRET)"
        case .http(401, let message, _):
            "\(message): check --identifier and --secret (or OPENMARKET_IDENTIFIER and OPENMARKET_SECRET)"
        case .http(_, let message, let field): field.flatMap(Self.flag(for:)).map { "\(message) (\($0))" } ?? message
        case .decoding(let reason): "the market's answer could not be read: \(reason)"
        }
    }

    /// The command-line flag that sets a field the market named.
    private static func flag(for field: MarketField) -> String? {
        switch field {
        case .name: "--name"
        case .description: "--description"
        case .price: "--price"
        case .discount: "--discount"
        case .stock: "--stock"
        case .currency: "--currency"
        case .images, .image: "--image"
        case .thumbnail: "--cover"
        case .pageNumber: "--page"
        case .itemsPerPage: "--per-page"
        case .identifier: "--identifier"
        case .secret: "--secret"
        case .latency, .jitter: "--latency"
        case .failPercent: "--fail"
        case .failStatus: "--status"
        case .dropPercent: "--drop"
        case .slowBody: "--slow-body"
        case .brokenPercent: "--broken"
        case .brokenKinds: "--broken-kinds"
        case .hardCases: "--hard-cases"
        case .productSecret, .sent: nil
        }
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// Runs `work`, ending the command with what went wrong, said as one line.
    static func catching<T>(_ work: () async throws -> T) async throws -> T {
        do { return try await work() } catch { throw CommandFailure(String(describing: error)) }
    }
}
