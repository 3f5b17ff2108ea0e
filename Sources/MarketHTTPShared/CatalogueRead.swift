import HTTPTypes
import Hummingbird
import NIOCore

/// One read of the catalogue, declared once: its route, what a request to it asks for, how the
/// market answers that, and the answer's bytes under `headers`. The router's route and the front
/// desk's read (`DeskRead`) are both made from it, so what the desk makes is the route's answer to
/// the byte.
package struct CatalogueRead<Query: Sendable, Value: Sendable>: Sendable {
    /// The route, its parameters in braces: `/api/products/{id}`.
    package let route: String
    /// The answer's own fields; the router adds its length, the answer cache its tag.
    package let headers: HTTPFields
    /// What a request with the route's parameters (in the route's order) asks for; throws the
    /// refusal the route answers with.
    package let query: @Sendable (HTTPRequest, [Substring]) throws -> Query
    package let read: @Sendable (Query) async throws -> Value
    package let body: @Sendable (Value, Query, HTTPRequest) throws -> ByteBuffer
    /// For whom the answer to `query` may be kept (`AnswerTerms`).
    package let terms: @Sendable (Query) -> AnswerTerms

    package init(
        route: String, headers: HTTPFields, query: @escaping @Sendable (HTTPRequest, [Substring]) throws -> Query,
        read: @escaping @Sendable (Query) async throws -> Value,
        body: @escaping @Sendable (Value, Query, HTTPRequest) throws -> ByteBuffer,
        terms: @escaping @Sendable (Query) -> AnswerTerms = { _ in AnswerTerms() }
    ) {
        self.route = route
        self.headers = headers
        self.query = query
        self.read = read
        self.body = body
        self.terms = terms
    }

    /// The route's answer to `query`.
    package func response(to head: HTTPRequest, asking query: Query) async throws -> Response {
        let value = try await read(query)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: try body(value, query, head)))
    }

    /// The same read for the front desk, which makes the answer itself when it has none kept.
    package var forDesk: DeskRead {
        DeskRead(route: route, headers: headers) { head, parameters in
            guard let query = try? query(head, parameters) else { return nil }
            return DeskRead.Making(terms: terms(query)) {
                guard let value = try? await read(query) else { return nil }
                return try? body(value, query, head)
            }
        }
    }
}

/// A catalogue read as the front desk makes it (`CatalogueRead.forDesk`).
package struct DeskRead: Sendable {
    /// How the desk makes the answer to one request: its body, or nil when only the route can say
    /// what to answer (no such product, a store that failed).
    package struct Making: Sendable {
        package var terms: AnswerTerms
        package var body: @Sendable () async -> ByteBuffer?
    }

    package let route: String
    package let headers: HTTPFields
    /// How to make the answer for a request with these parameters; nil when the route answers it
    /// (a refusal, or a visitor the desk does not serve).
    package let making: @Sendable (HTTPRequest, [Substring]) -> Making?
}

extension RouterMethods {
    /// Adds `read` at its route, the request read by its own `query`.
    package func get<Query, Value>(_ read: CatalogueRead<Query, Value>) {
        get(read) { request, context in try read.query(request.head, context.parameters(of: read.route)) }
    }

    /// Adds `read` at its route, the request read by `query`, and the answer passed on by `finish`.
    package func get<Query, Value>(
        _ read: CatalogueRead<Query, Value>, query: @escaping @Sendable (Request, Context) throws -> Query,
        finish: @escaping @Sendable (Response, Context) -> Response = { response, _ in response }
    ) {
        get(RouterPath(read.route)) { request, context in
            finish(try await read.response(to: request.head, asking: query(request, context)), context)
        }
    }
}

extension RequestContext {
    /// The values of `route`'s parameters in this request, in the route's order.
    package func parameters(of route: String) -> [Substring] {
        route.split(separator: "/").filter { $0.first == "{" }.map { name in
            Substring(parameters.get(String(name.dropFirst().dropLast())) ?? "")
        }
    }
}
