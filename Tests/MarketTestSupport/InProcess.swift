import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// The fast tier: a market's router answered in process by Hummingbird's `.router` testing, with
/// no socket and no port. For what routes and pages answer; where the bytes on the wire are the
/// point (real clients' quirks, pipelining, limits, several servers), a test uses `withServer`.
extension TestMarket {
    public static func inProcess<T: Sendable>(
        flavor: V2Flavor = .marketTraining, openRegistration: Bool = false, clock: TestClock? = nil,
        _ body: @Sendable (TestMarket) async throws -> T
    ) async throws -> T {
        let market = try await TestMarket(flavor: flavor, openRegistration: openRegistration, clock: clock)
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let application = Application(router: try market.market.router())
        return try await application.test(.router) { client in
            var market = market
            market.client = client
            return try await body(market)
        }
    }

    /// `request` through the router in process: its Host becomes the request's authority.
    func answerInProcess(
        _ client: any TestClientProtocol, _ method: String, _ path: String, headers: [String], body: Data
    ) async throws -> RawResponse {
        var fields = HTTPFields()
        for header in headers {
            let (name, value) = header.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            .pair
            guard let name = HTTPField.Name(name) else { throw RawHTTPError("no such header name: \(name)") }
            fields.append(HTTPField(name: name, value: value))
        }
        let response = try await client.executeRequest(
            uri: path, method: HTTPRequest.Method(method) ?? .get, headers: fields,
            body: body.isEmpty && !["POST", "PATCH", "PUT"].contains(method) ? nil : ByteBuffer(bytes: body))
        return RawResponse(
            status: response.status.code, headers: response.headers.map { ($0.name.canonicalName, $0.value) },
            body: Data(buffer: response.body))
    }
}

extension Array where Element == String {
    fileprivate var pair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
