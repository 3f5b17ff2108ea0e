import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// The 2021 Open Market API (v1, API reference §2): items guarded by their own password, 20 per page oldest
/// first, 200 for every success, and 404 for a wrong password, which is how its apps tell one.
package struct APIv1Controller<Context: ConnectionRequestContext> {
    static var itemsPerPage: Int { 20 }

    let service: MarketService

    package init(service: MarketService) { self.service = service }

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
        guard let number = Int(number) else { throw MarketError(.notFound, .noPage(number)) }
        let page = try await service.products(
            PageRequest(number: number, itemsPerPage: Self.itemsPerPage, order: .oldestFirst),
            rehearsing: context.rehearsal)
        return try JSONResponse.make(V1PageBody(page: page, urls: request.imageURLs))
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        try respond(
            with: try await service.product(id: try context.productID(), rehearsing: context.rehearsal), to: request)
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        try await v1Errors {
            let form = try await request.multipartForm(orRefuse: MarketError(.invalid, .itemsTakeMultipart))
            let fields = V1Requests.fields(of: form)
            let product = try await service.createProduct(
                try V1Requests.draft(from: fields), images: form.images(named: "images[]", "images"),
                by: try V1Requests.proof(in: fields, sender: context.sender(of: request)))
            return try respond(with: product, to: request)
        }
    }

    /// Any subset of the fields, with the password. Images, when sent, replace the item's; a password alone
    /// changes nothing and answers the item (Ryan Market checks passwords that way).
    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        try await v1Errors {
            let form = try await request.multipartForm(orRefuse: MarketError(.invalid, .itemsTakeMultipart))
            let fields = V1Requests.fields(of: form)
            let images = form.images(named: "images[]", "images")
            let product = try await service.updateProduct(
                id: try context.productID(), try V1Requests.changes(from: fields),
                images: images.isEmpty ? nil : images,
                proof: try V1Requests.proof(in: fields, sender: context.sender(of: request)))
            return try respond(with: product, to: request)
        }
    }

    /// `{"password": "…"}`, answered with the deleted item; or, from the January 2021 apps,
    /// `{"id": n, "password": "…"}`, answered with `{"id": n}` as they decode it.
    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        try await v1Errors {
            let body = try JSONFields(body: try await request.collectAPIBody(), part: "body")
            let id = try context.productID()
            let named = try body.wholeNumber("id")
            if let named, named != id {
                throw MarketError(.invalid, field: .sent("id"), rule: .sameItem(named: named, path: id))
            }
            let product = try await service.deleteProduct(
                id: id, proof: try V1Requests.proof(in: body, sender: context.sender(of: request)))
            guard named != nil else { return try respond(with: product, to: request) }
            RequestNotes.recognise(.january2021Delete)
            return try JSONResponse.make(["id": product.id])
        }
    }

    private func respond(with product: Product, to request: Request) throws -> Response {
        try JSONResponse.make(V1ItemBody(summary: product.summary, product: product, urls: request.imageURLs))
    }

    /// The 2021 apps read a 404 as "wrong password".
    private func v1Errors(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as MarketError where error.kind == .unauthorized {
            throw MarketError(.notFound, field: .secret, .wrongItemPassword)
        }
    }
}

/// Reads the 2021 API's multipart text fields into domain values. Numbers arrive as text; the
/// discount arrives as the sale price, as `discounted_price` or `discountedPrice`.
enum V1Requests {
    /// The form's text parts as fields, so that they are read with the same forgiveness as JSON.
    static func fields(of form: MultipartForm) -> JSONFields {
        var members: [String: JSONValue] = [:]
        for part in form.parts where !part.name.hasPrefix("images") {
            members[part.name] = .string(
                String(decoding: part.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return JSONFields(members: members)
    }

    static func draft(from fields: JSONFields) throws(MarketError) -> ProductDraft {
        let title = try fields.text("title").orMissing(.name)
        let description = try fields.text("descriptions", "description").orMissing(.description)
        let price = try fields.wholeNumber("price").orMissing(.price)
        let currency = try fields.currency("currency").orMissing(.currency)
        let stock = try fields.wholeNumber("stock").orMissing(.stock)
        var discount: (discount: Int64, zeroSalePriceSent: Bool) = (0, false)
        if let salePrice = try fields.wholeNumber("discounted_price", "discountedPrice") {
            do {
                discount = try ProductChanges.Discount.salePrice(salePrice).resolved(at: price)
            } catch {
                throw MarketError.invalid(error)
            }
        }
        return ProductDraft(
            name: title, description: description, currency: currency, price: price, discount: discount.discount,
            stock: stock, zeroSalePriceSent: discount.zeroSalePriceSent)
    }

    static func changes(from fields: JSONFields) throws(MarketError) -> ProductChanges {
        ProductChanges(
            name: try fields.text("title"), description: try fields.text("descriptions", "description"),
            currency: try fields.currency("currency"), price: try fields.wholeNumber("price"),
            discount: try fields.wholeNumber("discounted_price", "discountedPrice").map { .salePrice($0) },
            stock: try fields.wholeNumber("stock"), priceChangeKeeps: .salePrice)
    }

    static func proof(in fields: JSONFields, sender: RequestSender?) throws(MarketError) -> OwnershipProof {
        OwnershipProof(secret: try fields.text("password").orMissing(.secret), sender: sender)
    }
}
