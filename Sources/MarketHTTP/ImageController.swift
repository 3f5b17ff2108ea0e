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
        let etag = "\"\(key.prefix { $0 != "." })\""
        var headers: HTTPFields = [
            .contentType: format.mediaType,
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
        ]
        if request.headers[.ifNoneMatch]?.contains(etag) == true {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
