import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MarketCore
import MarketModel

/// Answers every failure in the JSON shape v1 clients know (`{"error": true, "reason": …}`) plus the field
/// to blame. Anything unexpected is logged and gets a 500 that leaks no detail; browsers get pages instead.
package struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package let pages: any ProblemPages
    package let methods: RouteMethods

    package init(pages: any ProblemPages, methods: RouteMethods) { (self.pages, self.methods) = (pages, methods) }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let dropped as ConnectionDropped {
            throw dropped
        } catch {
            return try response(to: error, of: request, context: context)
        }
    }

    private func response(to failure: any Error, of request: Request, context: Context) throws -> Response {
        if let error = failure as? any HTTPResponseError, error.status == .notFound {
            let allowed = methods.allowed(at: request.uri.path)
            if !allowed.isEmpty { return try methodNotAllowed(request, allowed: allowed) }
        }
        switch failure {
        case let error as MarketError:
            return try response(to: SpelledRefusal(error, fieldName: { $0.wireName }), of: request)
        case let refusal as SpelledRefusal: return try response(to: refusal, of: request)
        case let error as any HTTPResponseError where error.status == .notFound && request.wantsPage:
            return pages.problem(.notFound, refusal: nil, for: request)
        case let error as any HTTPResponseError:
            let reason =
                error.status == .notFound
                ? "nothing at \(request.method) \(request.uri.path.maskingSecrets(sentWith: request.method))"
                : error.status.reasonPhrase
            return try Self.response(status: error.status, reason: reason, field: nil)
        default:
            context.logger.error("unexpected failure", metadata: ["error": "\(String(reflecting: failure))"])
            return try Self.response(
                status: .internalServerError, reason: "the server failed; it has been logged", field: nil)
        }
    }

    private func response(to refusal: SpelledRefusal, of request: Request) throws -> Response {
        RequestNotes.refuse(refusal.error, field: refusal.field)
        guard refusal.error.kind == .unavailable, request.wantsPage else { return try Self.response(to: refusal) }
        return pages.problem(.serviceUnavailable, refusal: refusal.error, for: request)
            .retrying(after: refusal.error.retryAfter)
    }

    private func methodNotAllowed(_ request: Request, allowed methods: [HTTPRequest.Method]) throws -> Response {
        let allowed = methods.map(\.rawValue).joined(separator: ", ")
        let path = request.uri.path.maskingSecrets(sentWith: request.method)
        var response =
            request.wantsPage
            ? pages.problem(.methodNotAllowed, refusal: nil, for: request)
            : try Self.response(
                status: .methodNotAllowed, reason: "\(request.method) is not allowed on \(path); it takes \(allowed)",
                field: nil)
        response.headers[.allow] = allowed
        return response
    }

    private struct Body: Encodable {
        var error = true
        var reason: String
        var field: String?
    }

    /// A refusal in the API's words; also for what is refused before a route runs.
    package static func response(to refusal: SpelledRefusal) throws -> Response {
        try response(status: refusal.error.kind.status, reason: refusal.message, field: refusal.field)
            .retrying(after: refusal.error.retryAfter)
    }

    /// `{"error": true, "reason": …, "field": …}`, the field left out when nil.
    package static func response(status: HTTPResponse.Status, reason: String, field: String?) throws -> Response {
        try JSONResponse.make(Body(reason: reason, field: field), status: status)
    }
}

extension MarketError.Kind {
    /// The HTTP status every adapter answers this kind of refusal with.
    package var status: HTTPResponse.Status {
        switch self {
        case .invalid: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .tooLarge: .contentTooLarge
        case .conflict: .conflict
        case .unavailable: .serviceUnavailable
        case .throttled: .tooManyRequests
        }
    }
}

/// Where a browser's failure gets a page rather than JSON, in the visitor's language.
package protocol ProblemPages: Sendable {
    func problem(_ status: HTTPResponse.Status, refusal: MarketError?, for request: Request) -> Response
}

extension Response {
    package func retrying(after seconds: Int?) -> Response {
        guard let seconds else { return self }
        var response = self
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}

/// How one adapter (an API dialect) writes the names of the market's fields.
package typealias FieldSpelling = @Sendable (MarketField) -> String

/// A refusal as one adapter says it: the field, and the message that names it, in its spelling.
package struct SpelledRefusal: Error {
    package var error: MarketError
    package var message: String
    package var field: String?

    package init(_ error: MarketError, fieldName: FieldSpelling) {
        self.error = error
        message = error.message(naming: fieldName)
        field = error.field.map(fieldName)
    }
}

/// Spells the market's refusals in a dialect's own names; `APIErrorMiddleware` spells the others as the 2022 API does.
package struct FieldSpellingMiddleware<Context: RequestContext>: RouterMiddleware {
    let fieldName: FieldSpelling

    package init(_ fieldName: @escaping FieldSpelling) { self.fieldName = fieldName }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as MarketError {
            throw SpelledRefusal(error, fieldName: fieldName)
        }
    }
}
