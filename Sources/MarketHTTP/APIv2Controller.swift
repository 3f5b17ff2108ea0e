import Foundation
import Hummingbird
import MarketCore
import MarketModel

/// The 2022 Open Market API (v2, market-training flavour): wire bytes in, MarketService calls,
/// wire bytes out. Status codes are the ones strict clients pin: GET 200, POST 201, PATCH 202.
struct APIv2Controller<Context: RequestContext> {
    let service: MarketService

    func addRoutes(to router: Router<Context>) {
        router.get("healthChecker") { _, _ in try JSONResponse.make("OK") }
        let products = router.group("api/products")
        products.get(use: list)
        products.post(use: create)
        products.get("{id}", use: show)
        products.patch("{id}", use: update)
        products.post("{id}/secret", use: issueDeleteSecret)
        products.delete("{id}/{productSecret}", use: delete)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let query = request.queryFields
        let page = try await service.products(try V2Requests.page(from: query), search: query["search_value"])
        return try JSONResponse.make(V2PageBody(page: page, urls: request.imageURLs))
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let product = try await service.product(id: try context.productID())
        return try JSONResponse.make(V2ProductBody(product: product, urls: request.imageURLs))
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.collectAPIBody()
        guard let boundary = MultipartForm.boundary(in: request.headers[.contentType]) else {
            throw MarketError(
                .invalid, "POST /api/products takes multipart/form-data with a params part and 1 to 5 images parts")
        }
        let form = try MultipartForm(body: body, boundary: boundary)
        guard let params = form.parts(named: "params").first else { throw MarketError.missing("params") }
        let fields = try JSONFields(body: params.body, part: "params")
        // Empty parts are what one app sends for pictures it failed to encode; they are no pictures.
        let images = form.parts(named: "images", "images[]").flatMap { ImageUploads.split($0.body) }
            .filter { !$0.isEmpty }
        let product = try await service.createProduct(
            try V2Requests.draft(from: fields), images: images,
            by: try V2Requests.credentials(identifier: request.identifier, from: fields))
        return try JSONResponse.make(V2ProductBody(product: product, urls: request.imageURLs), status: .created)
    }

    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let id = try context.productID()
        // Many clients send this JSON with no Content-Type or a form one: the body is read as JSON.
        let body = try JSONFields(body: try await request.collectAPIBody(), part: "body")
        let product = try await service.updateProduct(
            id: id, try V2Requests.changes(from: body),
            by: try V2Requests.credentials(identifier: request.identifier, from: body))
        return try JSONResponse.make(V2ProductBody(product: product, urls: request.imageURLs), status: .accepted)
    }

    @Sendable func issueDeleteSecret(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let id = try context.productID()
        let secret = try V2Requests.secret(from: try await request.collectAPIBody())
        let productSecret = try await service.issueDeleteSecret(
            productID: id, by: VendorCredentials(identifier: request.identifier ?? "", secret: secret))
        return Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: productSecret)))
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        let product = try await service.deleteProduct(
            productID: try context.productID(),
            productSecret: context.parameters.get("productSecret") ?? "",
            identifier: request.identifier)
        return try JSONResponse.make(V2ProductBody(product: product, urls: request.imageURLs))
    }
}

extension RequestContext {
    /// The `{id}` of the path; anything but a whole number names no product.
    func productID() throws(MarketError) -> Int64 {
        let text = parameters.get("id") ?? ""
        guard let id = Int64(text) else { throw MarketError(.notFound, "no product has the id \"\(text)\"") }
        return id
    }
}
