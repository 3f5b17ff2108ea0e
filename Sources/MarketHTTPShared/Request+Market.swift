import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import MarketCore
import MarketModel
import NIOCore

extension HTTPRequest {
    package var clientScheme: String { headerFields[.forwardedProto]?.lowercased() ?? "http" }

    /// The head as the client sent it, before a team address was taken off its path.
    package var asSent: HTTPRequest {
        guard let prefix = headerFields[.forwardedPrefix] else { return self }
        var head = self
        head.headerFields[.forwardedPrefix] = nil
        head.path = prefix + (path ?? "/")
        return head
    }
}

extension Request {
    /// The largest request body the API reads: five images of the largest size, and the rest.
    package static let maximumAPIBodyBytes = 5 * MarketRules.maximumImageBytes + 4 * 1024 * 1024

    package var identifier: String? { headers[.identifier] }

    /// Query parameters by name; the first occurrence wins.
    package var queryFields: [String: String] {
        var fields: [String: String] = [:]
        for (key, value) in URI(head.path ?? "").queryParameters where fields[String(key)] == nil {
            fields[String(key)] = String(value)
        }
        return fields
    }

    /// Whether a browser asks: the answer is a page rather than JSON.
    package var wantsPage: Bool { headers[.accept]?.contains("text/html") == true }

    package var declaredLength: Int? { headers[.contentLength].flatMap { Int($0) } }

    /// The scheme the client used: a proxy in front says so in `X-Forwarded-Proto`.
    package var scheme: String { head.clientScheme }

    /// Where the client reached the market, for absolute addresses: `scheme://host:port`.
    package var origin: String { "\(scheme)://\(headers[.forwardedHost] ?? head.authority ?? "localhost")" }

    /// Image URLs on the scheme, host and team address this request came to.
    package var imageURLs: ImageURLs {
        ImageURLs(base: "\(scheme)://\(head.authority ?? "localhost")\(headers[.forwardedPrefix] ?? "")")
    }

    /// The body as multipart/form-data; `refusal` when the request says it is something else.
    package func multipartForm(orRefuse refusal: @autoclosure () -> MarketError) async throws -> MultipartForm {
        let body = try await apiBody()
        guard let boundary = MultipartForm.boundary(in: headers[.contentType]) else { throw refusal() }
        // Photos make bodies of megabytes, whose reading would hold a thread the reads need.
        guard body.readableBytes > 256 * 1024 else { return try MultipartForm(body: body, boundary: boundary) }
        return try await offload { try MultipartForm(body: body, boundary: boundary) }
    }

    /// The body, up to the largest the market reads; a longer one is refused by its declared length before any is read.
    package func collectAPIBody() async throws -> Data { Data(try await apiBody().readableBytesView) }

    /// Not kept in the request as `collectBody` keeps it: no route reads a body twice, and a body of photos
    /// would stay beside its parts until the request ends.
    private func apiBody() async throws -> ByteBuffer {
        if let length = declaredLength, length > Self.maximumAPIBodyBytes {
            throw MarketError(.tooLarge, .bodyTooLarge(Self.maximumAPIBodyBytes))
        }
        do {
            return try await body.collect(upTo: Self.maximumAPIBodyBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw MarketError(.tooLarge, .bodyTooLarge(Self.maximumAPIBodyBytes))
        }
    }
}

extension JSONEncoder {
    /// Keys in a fixed order, slashes as they are: the same value is the same bytes on every server and every time,
    /// so an answer's ETag is the same too.
    package static func stable() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }
}

package enum JSONResponse {
    private static let encoder = JSONEncoder.stable()

    package static let headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]

    package static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    package static func make(_ value: some JSONWritable, status: HTTPResponse.Status = .ok) -> Response {
        var json = JSONWriter()
        value.write(to: &json)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: json.bytes)))
    }
}

extension RequestContext {
    /// The `{id}` of the path; anything but a whole number names no product.
    package func productID() throws(MarketError) -> Int64 {
        let text = parameters.get("id") ?? ""
        guard let id = Int64(text) else { throw MarketError(.notFound, .noProductCalled(text.maskingSecrets())) }
        return id
    }
}

extension MultipartForm {
    /// The pictures in the parts with these names. Empty parts (one app's pictures it failed to encode) and text
    /// fields without an image (an early-2021 app describes its photo array there, `[]` if none) are no pictures.
    package func images(named first: String, _ second: String) -> [Data] {
        parts(named: first, second).filter { $0.isFile || UploadKind.sniff($0.body) != nil }
            .flatMap { ImageUploads.split($0.body) }.filter { !$0.isEmpty }
    }
}

/// Hummingbird's basic context plus the request's connection: where it came from and what a rehearsed failure may drop.
public struct MarketRequestContext: ConnectionRequestContext {
    public var coreContext: CoreRequestContextStorage
    package let connection: any Channel
    /// The vendor_id of the team address the request came through, if any.
    package var team: Int64?
    package var rehearsal: CatalogueRehearsal?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = source.channel
    }
}

/// A context that knows the connection its request came on, and the team whose address it came through, if any.
package protocol ConnectionRequestContext: RequestContext {
    var connection: any Channel { get }
    var team: Int64? { get }
    /// The hard cases the request's team rehearses, which its reads answer with.
    var rehearsal: CatalogueRehearsal? { get set }
}

extension ConnectionRequestContext {
    /// Who sent `request`, which the service counts wrong secrets by: its address, and the team it came through.
    package func sender(of request: Request) -> RequestSender? {
        request.clientAddress(peer: connection.remoteAddress).map { RequestSender(address: $0, team: team) }
    }

    /// Closes the connection before a byte of an answer, as a lost network does, for a rehearsed fault.
    package func dropConnection() async throws -> Never {
        try? await connection.close()
        throw ConnectionDropped()
    }
}

/// Thrown once a rehearsed fault has closed the connection: nothing is to be answered on it.
package struct ConnectionDropped: Error {}

extension Request {
    /// Where this request came from when `peer` sent it: the peer's address; behind a proxy on
    /// this machine (a loopback peer), the address that proxy appended last to `X-Forwarded-For`,
    /// as earlier entries are the client's own word and count for nothing.
    package func clientAddress(peer: SocketAddress?) -> String? {
        let peerAddress = peer?.ipAddress
        guard let peerAddress, peerAddress == "127.0.0.1" || peerAddress == "::1",
            let forwarded = headers[values: .forwardedFor].last?.split(separator: ",").last
        else { return peerAddress }
        let client = forwarded.trimmingCharacters(in: .whitespaces)
        return client.isEmpty ? peerAddress : client
    }
}

extension HTTPField.Name {
    /// The vendor a request of the 2022 API names.
    package static var identifier: Self { Self("identifier")! }
    /// The host, scheme and client a proxy in front (deploy/nginx) says it forwarded.
    package static var forwardedHost: Self { Self("X-Forwarded-Host")! }
    package static var forwardedProto: Self { Self("X-Forwarded-Proto")! }
    package static var forwardedFor: Self { Self("X-Forwarded-For")! }
    /// The team address a request came through, taken off its path before routing; set only by the market itself.
    package static var forwardedPrefix: Self { Self("X-Forwarded-Prefix")! }
    /// The storefront's script says `fetch` here for the requests it sends in the background.
    package static var requestedWith: Self { Self("X-Requested-With")! }
    package static var referrerPolicy: Self { Self("Referrer-Policy")! }
}
