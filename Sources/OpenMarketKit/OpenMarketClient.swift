import Foundation
import MarketModel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every call of the 2022 Open Market API, with async/await. Reading needs nothing; selling needs the vendor's
/// credentials. Failures are `OpenMarketError`s keeping the server's message; a cancelled task stops its request.
public struct OpenMarketClient: Sendable {
    /// The market's address, such as `http://127.0.0.1:8080`.
    public var baseURL: URL
    /// Who sells: needed to register, change or delete, not to browse.
    public var credentials: VendorCredentials?
    /// How long a call waits for the market before it fails with `OpenMarketError.timedOut`.
    public var timeout: Duration
    private let session: URLSession

    /// A client of the market at `baseURL`, selling as `credentials` if given, giving up on an answer after `timeout`.
    public init(
        baseURL: URL, credentials: VendorCredentials? = nil, timeout: Duration = .seconds(15),
        session: URLSession = .shared
    ) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.timeout = timeout
        self.session = session
    }

    /// Whether the market answers its health check (`/healthChecker`).
    public func isHealthy() async throws -> Bool {
        let data = try await send(request("healthChecker"))
        return (try? JSONDecoder().decode(String.self, from: data)) == "OK"
    }

    /// A page of products whose name or description `search` matches, in `sort`'s order (newest first when nil, and
    /// always on a 2022 server). With `after`, those after that product (this server's cursor, which a 2022 server
    /// ignores), so that paging through a market that changes meanwhile skips and repeats nothing.
    public func products(
        page: Int = 1, itemsPerPage: Int = 20, search: String? = nil, sort: ProductArrangement.Order? = nil,
        after: Int64? = nil
    ) async throws -> ProductPage {
        try decode(
            try await productsJSON(page: page, itemsPerPage: itemsPerPage, search: search, sort: sort, after: after))
    }

    /// One product with its pictures and vendor.
    public func product(id: Int64) async throws -> ProductDetails { try decode(try await productJSON(id: id)) }

    /// Registers a product with 1 to 5 pictures (JPEG, PNG, WebP or HEIC bytes; HEIC is kept as JPEG).
    public func createProduct(_ draft: ProductDraft, images: [Data]) async throws -> ProductDetails {
        try decode(try await createProductJSON(draft, images: images))
    }

    /// Changes what `changes` names; `coverImageID` picks the picture lists show.
    public func updateProduct(id: Int64, _ changes: ProductChanges) async throws -> ProductDetails {
        try decode(try await updateProductJSON(id: id, changes))
    }

    /// Asks for the product's delete secret, then deletes with it; answers the deleted product.
    public func deleteProduct(id: Int64) async throws -> ProductDetails {
        try decode(try await deleteProductJSON(id: id))
    }

    // MARK: The server's own JSON, for tools that show it as it is

    /// A page of products as the market's own JSON, for a caller that prints or keeps it as it came.
    public func productsJSON(
        page: Int = 1, itemsPerPage: Int = 20, search: String? = nil, sort: ProductArrangement.Order? = nil,
        after: Int64? = nil
    ) async throws -> Data {
        var query = [
            URLQueryItem(name: "page_no", value: "\(page)"),
            URLQueryItem(name: "items_per_page", value: "\(itemsPerPage)"),
        ]
        if let search, !search.isEmpty { query.append(URLQueryItem(name: "search_value", value: search)) }
        if let sort { query.append(URLQueryItem(name: "sort", value: sort.rawValue)) }
        if let after { query.append(URLQueryItem(name: "after", value: "\(after)")) }
        return try await send(request("api/products", query: query))
    }

    /// One product as the market's own JSON.
    public func productJSON(id: Int64) async throws -> Data { try await send(request("api/products/\(id)")) }

    /// Registers a product and gives the market's own JSON answer.
    public func createProductJSON(_ draft: ProductDraft, images: [Data]) async throws -> Data {
        let credentials = try requireCredentials()
        let params = try JSONSerialization.data(withJSONObject: ProductJSON.create(draft, secret: credentials.secret))
        let form = MultipartForm(params: params, images: images)
        var request = try request("api/products", method: "POST", credentials: credentials)
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = form.body
        return try await send(request)
    }

    /// Changes a product and gives the market's own JSON answer.
    public func updateProductJSON(id: Int64, _ changes: ProductChanges) async throws -> Data {
        let credentials = try requireCredentials()
        var request = try request("api/products/\(id)", method: "PATCH", credentials: credentials)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(
            withJSONObject: try ProductJSON.update(changes, secret: credentials.secret))
        return try await send(request)
    }

    /// Deletes a product through its delete secret and gives the market's own JSON answer.
    public func deleteProductJSON(id: Int64) async throws -> Data {
        let credentials = try requireCredentials()
        var secretRequest = try request("api/products/\(id)/secret", method: "POST", credentials: credentials)
        secretRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        secretRequest.httpBody = try JSONSerialization.data(withJSONObject: ["secret": credentials.secret])
        let productSecret = String(decoding: try await send(secretRequest), as: UTF8.self)
        return try await send(
            try request("api/products/\(id)/\(productSecret)", method: "DELETE", credentials: credentials))
    }

    // MARK: HTTP

    private func requireCredentials() throws -> VendorCredentials {
        guard let credentials else { throw OpenMarketError.missingCredentials }
        return credentials
    }

    private func request(
        _ path: String, method: String = "GET", query: [URLQueryItem] = [], credentials: VendorCredentials? = nil
    ) throws -> URLRequest {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        components?.queryItems = query.isEmpty ? nil : query
        guard let url = components?.url else { throw OpenMarketError.transport("\(baseURL) is not a usable base URL") }
        var request = URLRequest(url: url, timeoutInterval: timeout / .seconds(1))
        request.httpMethod = method
        if let credentials { request.setValue(credentials.identifier, forHTTPHeaderField: "identifier") }
        return request
    }

    private func send(_ request: URLRequest) async throws -> Data {
        try Task.checkCancellation()
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await Transfer.data(for: request, in: session)
        } catch let error as URLError where error.code != .cancelled {
            throw OpenMarketError(error)
        } catch is URLError, is CancellationError {
            throw CancellationError()
        } catch {
            throw OpenMarketError.transport(error.localizedDescription)
        }
        try Task.checkCancellation()
        guard let http = response as? HTTPURLResponse else { throw OpenMarketError.transport("not an HTTP answer") }
        guard (200..<300).contains(http.statusCode) else {
            let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            throw OpenMarketError.http(
                status: http.statusCode,
                message: body?["reason"] as? String ?? HTTPURLResponse.localizedString(forStatusCode: http.statusCode),
                field: (body?["field"] as? String).map(MarketField.init(wireName:)))
        }
        return data
    }

    /// Reads JSON from this client's answers into the kit's values.
    public func decode<T: Decodable>(_ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw OpenMarketError.decoding(String(describing: error))
        }
    }
}
