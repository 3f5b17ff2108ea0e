import Hummingbird
import MarketHTTPShared

/// A storefront request's context: the market's, plus the visit behind it.
package struct StorefrontContext: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
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
    }
}

/// Reads who is visiting (session, form token, notice, view) from the request's cookies, once.
struct VisitMiddleware: RouterMiddleware {
    let sealer: CookieSealer

    func handle(
        _ request: Request, context: StorefrontContext, next: (Request, StorefrontContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.visit = Visit(request, sealer: sealer)
        return try await next(request, context)
    }
}
