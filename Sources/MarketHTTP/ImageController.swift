import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared

/// Serves stored images. Their names are content hashes, so a URL's bytes never change: clients
/// and proxies may keep them for a year, and the ETag is the name itself.
struct ImageController<Context: ConnectionRequestContext> {
    let service: MarketService

    func addRoutes(to router: Router<Context>) { router.get("images/{key}", use: show) }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        let stored =
            key == Placeholder.key
            ? Placeholder.data.map(ImageContent.bytes)
            : try await service.image(key: key, rehearsing: context.rehearsal)
        guard let stored, let format = ImageKey.format(of: key) else { throw MarketError(.notFound, .noImage(key)) }
        let tag = "\"" + ImageKey.name(of: key) + "\""
        let headers: HTTPFields = [
            .contentType: format.mediaType, .eTag: tag,
            .cacheControl: MarketService.isRehearsalPicture(key) ? "no-store" : "public, max-age=31536000, immutable",
        ]
        switch stored {
        case .redirect(let url): return Response(status: .found, headers: [.location: url.absoluteString])
        case .bytes where request.headers[.ifNoneMatch]?.contains(tag) == true:
            return Response(status: .notModified, headers: headers)
        case .bytes(let data):
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}
