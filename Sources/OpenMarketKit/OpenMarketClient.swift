import Foundation
import MarketModel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every call of the 2022 Open Market API, with async/await. Reading needs nothing; selling needs
/// the vendor's credentials. Failures are `OpenMarketError`s that keep the server's own message, and
/// a cancelled task stops its request.
public struct OpenMarketClient: Sendable {
    public var baseURL: URL
    public var credentials: VendorCredentials?
    private let session: URLSession

    public init(baseURL: URL, credentials: VendorCredentials? = nil, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.session = session
    }

    public func isHealthy() async throws -> Bool {
        let data = try await send(request("healthChecker"))
        return (try? JSONDecoder().decode(String.self, from: data)) == "OK"
    }

    /// One page of the catalogue, newest first; `search` matches names and descriptions.
    public func products(page: Int = 1, itemsPerPage: Int = 20, search: String? = nil) async throws -> ProductPage {
        var query = [
            URLQueryItem(name: "page_no", value: "\(page)"),
            URLQueryItem(name: "items_per_page", value: "\(itemsPerPage)"),
        ]
        if let search, !search.isEmpty { query.append(URLQueryItem(name: "search_value", value: search)) }
        return try decode(try await send(request("api/products", query: query)))
    }

    public func product(id: Int) async throws -> ProductDetails {
        try decode(try await send(request("api/products/\(id)")))
    }

    /// Registers a product with 1 to 5 pictures (JPEG, PNG or WebP bytes).
    public func createProduct(_ draft: ProductDraft, images: [Data]) async throws -> ProductDetails {
        let credentials = try requireCredentials()
        let params = try JSONSerialization.data(withJSONObject: ProductJSON.create(draft, secret: credentials.secret))
        let form = MultipartForm(params: params, images: images)
        var request = try request("api/products", method: "POST", credentials: credentials)
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = form.body
        return try decode(try await send(request))
    }

    /// Changes what `changes` names; `coverImageID` picks the picture lists show.
    public func updateProduct(id: Int, _ changes: ProductChanges) async throws -> ProductDetails {
        let credentials = try requireCredentials()
        var request = try request("api/products/\(id)", method: "PATCH", credentials: credentials)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(
            withJSONObject: try ProductJSON.update(changes, secret: credentials.secret))
        return try decode(try await send(request))
    }

    /// Asks for the product's delete secret, then deletes with it; answers the deleted product.
    public func deleteProduct(id: Int) async throws -> ProductDetails {
        let credentials = try requireCredentials()
        var secretRequest = try request("api/products/\(id)/secret", method: "POST", credentials: credentials)
        secretRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        secretRequest.httpBody = try JSONSerialization.data(withJSONObject: ["secret": credentials.secret])
        let productSecret = String(decoding: try await send(secretRequest), as: UTF8.self)
        return try decode(
            try await send(
                try request("api/products/\(id)/\(productSecret)", method: "DELETE", credentials: credentials)))
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
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let credentials { request.setValue(credentials.identifier, forHTTPHeaderField: "identifier") }
        return request
    }

    private func send(_ request: URLRequest) async throws -> Data {
        try Task.checkCancellation()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError where error.code == .cancelled {
            throw CancellationError()
        } catch is CancellationError {
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
                field: body?["field"] as? String)
        }
        return data
    }

    private func decode<T: Decodable>(_ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw OpenMarketError.decoding(String(describing: error))
        }
    }
}
