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
        router.get("images/{key}", use: show)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        let stored =
            key == Placeholder.key ? Placeholder.data.map(ImageContent.bytes) : try await service.image(key: key)
        guard let stored, let format = ImageKey.format(of: key) else {
            throw MarketError(.notFound, "no image is called \(key)")
        }
        let data: Data
        switch stored {
        case .bytes(let bytes): data = bytes
        case .redirect(let url): return Response(status: .found, headers: [.location: url.absoluteString])
        }
        let tag = ImageAnswer.tag(of: key)
        var headers = ImageAnswer.headers(tag: tag, format: format)
        if ImageAnswer.isUnchanged(tag, for: request.head) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// What an image's answer says besides its bytes, wherever it is given.
enum ImageAnswer {
    static func tag(of key: String) -> String {
        "\"" + ImageKey.name(of: key) + "\""
    }

    static func headers(tag: String, format: ImageFormat) -> HTTPFields {
        [.contentType: format.mediaType, .eTag: tag, .cacheControl: "public, max-age=31536000, immutable"]
    }

    /// The client holds these bytes already.
    static func isUnchanged(_ tag: String, for request: HTTPRequest) -> Bool {
        request.headerFields[.ifNoneMatch]?.contains(tag) == true
    }
}
