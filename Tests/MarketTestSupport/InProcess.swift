import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MarketApp
import MarketModel
import NIOCore

/// The fast tier: a market's router answered in process by Hummingbird's `.router` testing, with
/// no socket and no port. For what routes and pages answer; where the bytes on the wire are the
/// point (real clients' quirks, pipelining, limits, several servers), a test uses `withServer`.
extension TestMarket {
    /// `team` names the vendor whose team address the market's own address is too, as `serve --team` does.
    public static func inProcess<T: Sendable>(
        flavor: V2Flavor = .marketTraining, openRegistration: Bool = false, clock: TestClock? = nil,
        team: String? = nil, configure: @escaping @Sendable (inout MarketConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestMarket) async throws -> T
    ) async throws -> T {
        let market = try await TestMarket(
            flavor: flavor, openRegistration: openRegistration, clock: clock, configure: configure)
        defer { try? FileManager.default.removeItem(at: market.directory) }
        var plainAddressTeam: Vendor?
        if let team { plainAddressTeam = try await market.market.vendor(named: team) }
        let application = Application(responder: try market.market.responder(plainAddressTeam: plainAddressTeam))
        return try await application.test(.router) { client in
            var market = market
            market.client = client
            return try await body(market)
        }
    }

    /// `request` through the router in process, whose authority Hummingbird's testing names `localhost`.
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
