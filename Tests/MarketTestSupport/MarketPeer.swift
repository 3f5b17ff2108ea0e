import Foundation
import MarketDemo

/// A market reached over HTTP on a port of 127.0.0.1: one server, or nginx in front of several.
public struct MarketPeer: Sendable {
    public let port: Int
    /// The Host every request names; by default the address itself.
    public var host: String

    public init(port: Int, host: String? = nil) {
        self.port = port
        self.host = host ?? "127.0.0.1:\(port)"
    }

    /// Sends a request with the usual framing: Host and Content-Length are added, the rest is as given.
    public func send(
        _ method: String, _ path: String, headers: [String] = [], body: Data = Data()
    ) async throws -> RawResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty || ["POST", "PATCH", "PUT"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        return try await RawHTTP.send(wire("\(head)\r\n", WirePiece(body)), port: port)
    }

    /// Registers a product as the 2022 apps do: a JSON `params` part and one part per picture.
    public func create(
        _ name: String, by vendor: DemoCatalogue.DemoVendor, price: Int = 1000, images: [Data]
    ) async throws -> RawResponse {
        let b = "peer-\(UUID().uuidString)"
        let params =
            #"{"name":"\#(name)","descriptions":"Made in a test.","price":\#(price),"currency":"KRW","stock":2,"secret":"\#(vendor.secret)"}"#
        var body = wire("--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n")
        for (index, image) in images.enumerated() {
            body += wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"\(index).jpg\"\r\n",
                "Content-Type: image/jpeg\r\n\r\n", WirePiece(image), "\r\n")
        }
        body += wire("--\(b)--\r\n")
        return try await send(
            "POST", "/api/products",
            headers: ["identifier: \(vendor.identifier)", "Content-Type: multipart/form-data; boundary=\(b)"],
            body: body)
    }

    /// Changes a product's facts as a 2022 app does.
    public func patch(_ id: Int, _ json: String, by vendor: DemoCatalogue.DemoVendor) async throws -> RawResponse {
        try await send(
            "PATCH", "/api/products/\(id)",
            headers: ["identifier: \(vendor.identifier)", "Content-Type: application/json"], body: Data(json.utf8))
    }

    /// Deletes a product as a 2022 app does: asks for its delete secret, then DELETEs with it.
    public func delete(_ id: Int, by vendor: DemoCatalogue.DemoVendor) async throws -> RawResponse {
        let secret = try await send(
            "POST", "/api/products/\(id)/secret",
            headers: ["identifier: \(vendor.identifier)", "Content-Type: application/json"],
            body: Data(#"{"secret":"\#(vendor.secret)"}"#.utf8))
        guard secret.status == 200 else { return secret }
        return try await send(
            "DELETE", "/api/products/\(id)/\(secret.text)", headers: ["identifier: \(vendor.identifier)"])
    }
}
