import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// The 2021 Open Market API (v1, API reference §2): items guarded by their own password, 20 per
/// page oldest first, 200 for every success, and 404 for a wrong password, which is how its apps
/// tell one.
package struct APIv1Controller<Context: RequestContext> {
    static var itemsPerPage: Int { 20 }

    let service: MarketService

    package init(service: MarketService) {
        self.service = service
    }

    /// `cache` keeps the lists and details it gave until the catalogue changes.
    package func addRoutes(to router: Router<Context>, cache: ResponseCache) {
        let router = router.group().add(middleware: FieldSpellingMiddleware(V1FieldNames.name))
        let reading = router.caching(in: cache, version: service.catalogueVersion)
        reading.get("items/{page}", use: list)
        reading.get("item/{id}", use: show)
        router.post("item", use: create)
        router.patch("item/{id}", use: update)
        router.delete("item/{id}", use: delete)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let number = context.parameters.get("page") ?? ""
        guard let number = Int(number) else { throw MarketError(.notFound, "no page \"\(number)\"") }
        let page = try await service.products(
            PageRequest(number: number, itemsPerPage: Self.itemsPerPage, order: .oldestFirst))
        return try JSONResponse.make(V1PageBody(page: page, urls: request.imageURLs))
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        try respond(with: try await service.product(id: try context.productID()), to: request)
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        try await v1Errors {
            let form = try await Self.form(of: request)
            let fields = V1Requests.fields(of: form)
            let product = try await service.createItem(
                try V1Requests.draft(from: fields), images: form.images(named: "images[]", "images"),
                password: try V1Requests.password(in: fields))
            return try respond(with: product, to: request)
        }
    }

    /// Any subset of the fields, with the password. Images, when sent, replace the item's; a
    /// password alone changes nothing and answers the item (Ryan checks passwords that way).
    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        try await v1Errors {
            let form = try await Self.form(of: request)
            let fields = V1Requests.fields(of: form)
            let images = form.images(named: "images[]", "images")
            let product = try await service.updateProduct(
                id: try context.productID(), try V1Requests.changes(from: fields),
                images: images.isEmpty ? nil : images,
                proof: OwnershipProof(secret: try V1Requests.password(in: fields)))
            return try respond(with: product, to: request)
        }
    }

    /// `{"password": "…"}`, answered with the deleted item; or, from the January 2021 apps,
    /// `{"id": n, "password": "…"}`, answered with `{"id": n}` as they decode it.
    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        try await v1Errors {
            var request = request
            let body = try JSONFields(body: try await request.collectAPIBody(), part: "body")
            let id = try context.productID()
            let named = try body.wholeNumber("id")
            if let named, named != id {
                throw MarketError(.invalid, field: .sent("id"), rule: "is \(named), but the path names item \(id)")
            }
            let product = try await service.deleteProduct(
                id: id, proof: OwnershipProof(secret: try V1Requests.password(in: body)))
            guard named != nil else { return try respond(with: product, to: request) }
            RequestNotes.recognise(.january2021Delete)
            return try JSONResponse.make(DeletedItemBody(id: product.id))
        }
    }

    private static func form(of request: Request) async throws -> MultipartForm {
        var request = request
        return try await request.multipartForm(orRefuse: MarketError(.invalid, "items are sent as multipart/form-data"))
    }

    private func respond(with product: Product, to request: Request) throws -> Response {
        try JSONResponse.make(V1ItemBody(product: product, urls: request.imageURLs))
    }

    /// The 2021 apps read a 404 as "wrong password".
    private func v1Errors(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as MarketError where error.kind == .unauthorized {
            throw MarketError(.notFound, field: .secret, "the password does not match this item")
        }
    }
}
