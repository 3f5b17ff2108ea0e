import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// What apps poll most: made once, not encoded for every poll.
private let healthy = ByteBuffer(string: #""OK""#)

/// The 2022 Open Market API (v2), answered in the flavour of the host each request names. Its status codes are
/// the ones strict clients pin: GET 200, POST 201, PATCH 202.
package struct APIv2Controller<Context: ConnectionRequestContext> {
    let service: MarketService
    let defaultFlavor: V2Flavor

    package init(service: MarketService, defaultFlavor: V2Flavor) {
        self.service = service
        self.defaultFlavor = defaultFlavor
    }

    package func addRoutes(to router: Router<Context>, cache: ResponseCache) {
        router.get("healthChecker") { _, _ in
            Response(status: .ok, headers: JSONResponse.headers, body: .init(byteBuffer: healthy))
        }
        let reading = router.group().caching(in: cache, version: service.catalogueVersion)
        reading.get("api/products", use: list)
        reading.get("api/products/{id}", use: show)
        let products = router.group("api/products")
        products.post(use: create)
        products.patch("{id}", use: update)
        products.post("{id}/secret", use: issueDeleteSecret)
        products.post("{id}/archived", use: issueDeletePath)
        products.delete("{id}/{productSecret}", use: delete)
        // openmarket clients use `/archived`'s path whole, keep its last segment, or append it to `/api/products/`;
        // each ends in the delete secret. The router takes one parameter name per position, hence `{id}`.
        products.delete("{id}", use: deleteByLastSegment)
        products.delete("api/products/{id}", use: deleteByLastSegment)
    }

    /// A page of the catalogue or of a search, newest first unless `sort` asks otherwise.
    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let query = request.queryFields
        let page = try await service.products(
            try V2Requests.page(from: query), search: query["search_value"],
            arranged: try V2Requests.arrangement(from: query), rehearsing: context.rehearsal)
        return JSONResponse.make(V2PageBody(page: page, flavor: flavor(of: request.head), urls: request.imageURLs))
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        respond(
            with: try await service.product(id: try context.productID(), rehearsing: context.rehearsal), to: request)
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let admitted = try await service.admitSeller(identifier: request.identifier)
        let form = try await request.multipartForm(orRefuse: MarketError(.invalid, .createTakesMultipart))
        let params = try form.parts(named: "params").first.orMissing(.sent("params"))
        let fields = try JSONFields(body: params.body, part: "params")
        let product = try await service.createProduct(
            try V2Requests.draft(from: fields), images: form.images(named: "images", "images[]"),
            by: OwnershipProof(
                identifier: request.identifier ?? "", secret: try V2Requests.secret(in: fields),
                sender: context.sender(of: request), admitted: admitted))
        return respond(with: product, to: request, status: .created)
    }

    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        let id = try context.productID()
        // Many clients send this JSON with no Content-Type or a form one: the body is read as JSON.
        // Nala Market sends it as the `params` part of a multipart form, as for a create.
        let raw = try await request.collectAPIBody()
        let params = MultipartForm.boundary(in: request.headers[.contentType]).flatMap {
            try? MultipartForm(body: raw, boundary: $0).parts(named: "params").first?.body
        }
        let body = try JSONFields(body: params ?? raw, part: params == nil ? "body" : "params")
        let product = try await service.updateProduct(
            id: id, try V2Requests.changes(from: body),
            proof: OwnershipProof(
                identifier: request.identifier, secret: try V2Requests.secret(in: body),
                sender: context.sender(of: request)))
        return respond(with: product, to: request, status: .accepted)
    }

    /// market-training's `/secret`: the delete secret itself, as plain text.
    @Sendable func issueDeleteSecret(_ request: Request, context: Context) async throws -> String {
        try await deleteSecret(request, context: context).secret
    }

    /// openmarket's `/archived`: a path that deletes the product, as plain text.
    @Sendable func issueDeletePath(_ request: Request, context: Context) async throws -> String {
        let (id, secret) = try await deleteSecret(request, context: context)
        return flavor(of: request.head).deletePath(productID: id, secret: secret)
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        let product = try await service.deleteProduct(
            productID: try context.productID(), productSecret: context.parameters.get("productSecret") ?? "",
            from: context.sender(of: request))
        return respond(with: product, to: request)
    }

    @Sendable func deleteByLastSegment(_ request: Request, context: Context) async throws -> Response {
        let secret = request.uri.path.split(separator: "/").last.map(String.init) ?? ""
        let product = try await service.deleteProduct(
            productID: nil, productSecret: secret, from: context.sender(of: request))
        return respond(with: product, to: request)
    }

    private func deleteSecret(_ request: Request, context: Context) async throws -> (id: Int64, secret: String) {
        let id = try context.productID()
        let secret = try V2Requests.bareOrObjectSecret(from: try await request.collectAPIBody())
        let proof = OwnershipProof(
            identifier: request.identifier, secret: secret, sender: context.sender(of: request))
        return try await (id, service.issueDeleteSecret(productID: id, proof: proof))
    }

    private func flavor(of head: HTTPRequest) -> V2Flavor { V2Flavor.forHost(head.authority, fallback: defaultFlavor) }

    private func respond(with product: Product, to request: Request, status: HTTPResponse.Status = .ok) -> Response {
        let body = V2ProductBody(
            summary: product.summary, product: product, flavor: flavor(of: request.head), urls: request.imageURLs)
        return JSONResponse.make(body, status: status)
    }
}

/// Reads the 2022 API's requests, accepting every spelling real clients used: `descriptions`/`description`,
/// `discounted_price`/`discountedPrice`, `thumbnail_id`/`thumbnailId`/`thumbnailID`, numbers as text.
enum V2Requests {
    static func draft(from params: JSONFields) throws(MarketError) -> ProductDraft {
        let name = try params.text("name").orMissing(.name)
        let description = try params.text("descriptions", "description").orMissing(.description)
        let price = try params.wholeNumber("price").orMissing(.price)
        let currency = try params.currency("currency").orMissing(.currency)
        return ProductDraft(
            name: name, description: description, currency: currency, price: price,
            discount: try params.wholeNumber("discounted_price", "discountedPrice") ?? 0,
            stock: try params.wholeNumber("stock") ?? 0)
    }

    static func changes(from body: JSONFields) throws(MarketError) -> ProductChanges {
        ProductChanges(
            name: try body.text("name"), description: try body.text("descriptions", "description"),
            currency: try body.currency("currency"), price: try body.wholeNumber("price"),
            discount: try body.wholeNumber("discounted_price", "discountedPrice").map { .amount($0) },
            stock: try body.wholeNumber("stock"),
            coverImageID: try body.wholeNumber("thumbnail_id", "thumbnailId", "thumbnailID"))
    }

    static func secret(in body: JSONFields) throws(MarketError) -> String { try body.text("secret").orMissing(.secret) }

    /// The body of `/secret` and `/archived`: `{"secret": "…"}`, or the secret alone as a JSON string.
    static func bareOrObjectSecret(from body: Data) throws(MarketError) -> String {
        switch try JSONFields.parse(body, part: "body") {
        case .string(let secret) where !secret.isEmpty:
            return secret
        case .object(let members):
            return try JSONFields(members: members).text("secret").orMissing(.secret)
        default:
            throw MarketError.missing(.secret)
        }
    }

    /// A page number or size below 1 is read as sent, so that the refusal says what it must be.
    static func page(from query: [String: String]) throws(MarketError) -> PageRequest {
        PageRequest(
            number: try number(query, "page_no", "page-no", signed: true) ?? 1,
            itemsPerPage: try number(query, "items_per_page", "items-per-page", signed: true) ?? 20,
            after: try number(query, "after").map(Int64.init))
    }

    /// The optional `sort`: one of `ProductArrangement.Order`'s names; without it, newest first.
    static func arrangement(from query: [String: String]) throws(MarketError) -> ProductArrangement {
        guard let text = query["sort"], !text.isEmpty else { return .asListed }
        guard let order = ProductArrangement.Order(rawValue: text) else {
            throw MarketError(
                .invalid, field: .sent("sort"),
                rule: .nameAmong(ProductArrangement.Order.allCases.map(\.rawValue), sent: text))
        }
        return ProductArrangement(order: order)
    }

    private static func number(
        _ query: [String: String], _ keys: String..., signed: Bool = false
    ) throws(MarketError) -> Int? {
        guard let (key, text) = keys.lazy.compactMap({ key in query[key].map { (key, $0) } }).first,
            !text.isEmpty
        else { return nil }
        let digits = signed && text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let value = Int(text)
        else { throw MarketError(.invalid, field: .sent(key), rule: .wholeNumberNot("\"\(text)\"")) }
        return value
    }
}
