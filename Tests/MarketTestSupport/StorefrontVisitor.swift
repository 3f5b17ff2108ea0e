import Foundation
import MarketDemo

/// A browser reduced to its cookies: it remembers what the storefront sets and sends it back.
public struct StorefrontVisitor {
    /// The server it visits; a visitor may move to another server of the same market.
    public var port: Int
    public var cookies: [String: String] = [:]
    /// What the visitor's browser asks for in `Accept-Language`; nil sends no such header.
    public var language: String?

    /// The market in process, when the visitor was made for one (`TestMarket.inProcess`).
    private var market: TestMarket?

    public init(port: Int, language: String? = "en") {
        self.port = port
        self.language = language
    }

    /// A visitor of `market`, through its port or, inside `TestMarket.inProcess`, its router.
    public init(_ market: TestMarket, language: String? = "en") {
        self.init(port: market.port, language: language)
        self.market = market
    }

    public mutating func get(_ path: String, headers: [String] = []) async throws -> RawResponse {
        try await send("GET", path, headers: headers)
    }

    public mutating func post(
        _ path: String, _ fields: [String: String], token: Bool = true, headers: [String] = []
    ) async throws -> RawResponse {
        var fields = fields
        if token { fields["form_token"] = cookies["market_form_token"] ?? "" }
        let body = fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
        return try await send(
            "POST", path, headers: ["Content-Type: application/x-www-form-urlencoded"] + headers,
            body: Data(body.joined(separator: "&").utf8))
    }

    /// Posts a form as multipart/form-data, the way the sell and edit forms go, with its token.
    public mutating func postMultipart(
        _ path: String, _ fields: [String: String], images: [Data] = []
    ) async throws -> RawResponse {
        let boundary = "storefront-test"
        var body = Data()
        var fields = fields
        fields["form_token"] = cookies["market_form_token"] ?? ""
        for (name, value) in fields {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for (index, image) in images.enumerated() {
            body += Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"\(index).jpg\"\r\n\r\n"
                    .utf8)
            body += image + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return try await send(
            "POST", path, headers: ["Content-Type: multipart/form-data; boundary=\(boundary)"], body: body)
    }

    public mutating func send(
        _ method: String, _ path: String, headers: [String] = [], body: Data = Data()
    ) async throws -> RawResponse {
        let cookie = cookies.map { "\($0)=\($1)" }.joined(separator: "; ")
        let asked = language.map { ["Accept-Language: \($0)"] } ?? []
        let sent = asked + headers + (cookie.isEmpty ? [] : ["Cookie: \(cookie)"])
        let response: RawResponse
        if let market, let client = market.client {
            response = try await market.answerInProcess(client, method, path, headers: sent, body: body)
        } else {
            var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.count)\r\n"
            for header in sent { head += header + "\r\n" }
            response = try await RawHTTP.send(wire("\(head)\r\n", WirePiece(body)), port: port)
        }
        for (name, value) in response.headers where name.lowercased() == "set-cookie" {
            let pair = value.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1)
            let cookieName = String(pair[0])
            if value.contains("Max-Age=0") {
                cookies[cookieName] = nil
            } else {
                cookies[cookieName] = pair.count > 1 ? String(pair[1]) : ""
            }
        }
        return response
    }

    public mutating func signIn(_ vendor: DemoCatalogue.DemoVendor = TestMarket.papri) async throws -> RawResponse {
        _ = try await get("/sign-in")
        return try await post(
            "/sign-in", ["identifier": vendor.identifier, "secret": vendor.secret, "next": "/products/new"])
    }
}
