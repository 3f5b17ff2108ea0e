import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared

/// Serves stored images. Their names are content hashes, so a URL's bytes never change: clients
/// and proxies may keep them for a year, and the ETag is the name itself.
struct ImageController<Context: RequestContext> {
    let service: MarketService

    func addRoutes(to router: Router<Context>) {
        router.get(RouterPath(ImageAnswer.route), use: show)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        let stored =
            key == Placeholder.key ? Placeholder.data.map(ImageContent.bytes) : try await service.image(key: key)
        guard let stored, let (status, headers) = ImageAnswer.head(key, for: request.head) else {
            throw MarketError(.notFound, "no image is called \(key)")
        }
        switch stored {
        case .redirect(let url): return Response(status: .found, headers: [.location: url.absoluteString])
        case .bytes where status == .notModified: return Response(status: .notModified, headers: headers)
        case .bytes(let data):
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}

/// An image's answer besides its bytes, wherever it is given.
enum ImageAnswer {
    static let route = "/images/{key}"
    static let routeSegments = route.split(separator: "/")

    /// The head of the answer to a request for the image `key`, its length aside: 304 when the
    /// client holds these bytes already. Nil for a key that names no picture format.
    static func head(_ key: String, for request: HTTPRequest) -> (HTTPResponse.Status, HTTPFields)? {
        guard let format = ImageKey.format(of: key) else { return nil }
        let tag = "\"" + ImageKey.name(of: key) + "\""
        let fields: HTTPFields = [
            .contentType: format.mediaType, .eTag: tag, .cacheControl: "public, max-age=31536000, immutable",
        ]
        return (request.headerFields[.ifNoneMatch]?.contains(tag) == true ? .notModified : .ok, fields)
    }
}
