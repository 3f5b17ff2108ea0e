import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import NIOCore

/// A storefront request's context: the market's, plus the visit behind it.
package struct StorefrontContext: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
    let connection: any Channel
    private var filledVisit: Visit?

    /// Filled once by `VisitMiddleware`, which runs before every storefront route.
    var visit: Visit {
        get {
            guard let filledVisit else { preconditionFailure("VisitMiddleware runs before every storefront route") }
            return filledVisit
        }
        set { filledVisit = newValue }
    }

    package init(context: MarketRequestContext) {
        coreContext = context.coreContext
        connection = context.connection
    }
}

/// Stages the faults a signed-in vendor rehearses on their own storefront pages too: a delay, a
/// failure page with the chosen status, or a connection dropped before any answer. The pages that
/// switch faults off, and signing in and out, are spared.
struct RehearsalMiddleware: RouterMiddleware {
    static let spared = ["/inspector", "/sign-in", "/sign-out", "/operator"]

    let rehearsals: Rehearsals
    let pages: Pages

    func handle(
        _ request: Request, context: StorefrontContext, next: (Request, StorefrontContext) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path.lowercased()
        guard !Self.spared.contains(where: { path.hasPrefix($0) }), let vendorID = context.visit.session?.vendorID,
            let staged = try? await rehearsals.nextStaging(for: vendorID)
        else { return try await next(request, context) }
        try await Task.sleep(for: staged.delay)
        switch staged.outcome {
        case .answer, .broken:
            // Pages are not broken: broken answers are for the apps that decode them.
            return try await next(request, context)
        case .fail(let status):
            return pages.problem(
                HTTPResponse.Status(code: status),
                message: context.visit.words("rehearsedFailure", ["status": String(status)]),
                visit: context.visit)
        case .drop:
            try? await context.connection.close()
            throw CancellationError()
        }
    }
}

/// Reads who is visiting (session, form token, notice, view) from the request's cookies, once.
struct VisitMiddleware: RouterMiddleware {
    let sealer: CookieSealer
    let books: [Language: Words]

    func handle(
        _ request: Request, context: StorefrontContext, next: (Request, StorefrontContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let visit = Visit(request, sealer: sealer, books: books)
        context.visit = visit
        return visit.handOutFormToken(with: try await next(request, context))
    }
}
