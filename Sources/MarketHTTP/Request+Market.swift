import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketModel

extension Request {
    /// The largest request body the API reads: five images of the largest size, and the rest.
    static let maximumAPIBodyBytes = 5 * MarketRules.maximumImageBytes + 4 * 1024 * 1024

    /// The vendor identifier header. HTTP header names are matched case-insensitively.
    var identifier: String? {
        headers[HTTPField.Name("identifier")!]
    }

    /// Query parameters by name; the first occurrence wins.
    var queryFields: [String: String] {
        var fields: [String: String] = [:]
        for (key, value) in uri.queryParameters where fields[String(key)] == nil {
            fields[String(key)] = String(value)
        }
        return fields
    }

    /// The scheme the client used: a proxy in front says so in `X-Forwarded-Proto`.
    var scheme: String {
        headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() ?? "http"
    }

    /// Image URLs on the scheme and host this request came to.
    var imageURLs: ImageURLs {
        ImageURLs(base: "\(scheme)://\(head.authority ?? "localhost")")
    }

    /// The body as multipart/form-data; `refusal` when the request says it is something else.
    mutating func multipartForm(orRefuse refusal: @autoclosure () -> MarketError) async throws -> MultipartForm {
        let body = try await collectAPIBody()
        guard let boundary = MultipartForm.boundary(in: headers[.contentType]) else { throw refusal() }
        return try MultipartForm(body: body, boundary: boundary)
    }

    /// The body, up to the largest the market reads; a longer one is refused by its declared
    /// length before any of it is read.
    mutating func collectAPIBody() async throws -> Data {
        if let length = declaredLength, length > Self.maximumAPIBodyBytes {
            throw MarketError(.tooLarge, "the request body is larger than \(Self.maximumAPIBodyBytes) bytes")
        }
        do {
            return Data(try await collectBody(upTo: Self.maximumAPIBodyBytes).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw MarketError(.tooLarge, "the request body is larger than \(Self.maximumAPIBodyBytes) bytes")
        }
    }
}

enum JSONResponse {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }()

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
