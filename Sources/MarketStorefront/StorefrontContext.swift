import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import NIOCore

/// A storefront request's context: the market's, plus the visit behind it.
package struct StorefrontContext: ChildRequestContext, ConnectionRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let connection: any Channel
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

/// What every storefront request passes, once: who is visiting (session, form token, notice,
/// language, read from the cookies), the faults a signed-in seller rehearses on their own pages (a
/// delay, a failure page with the chosen status, or a connection dropped before any answer; the
/// pages that switch faults off, and signing in and out, are spared), and, for a failure, a page in
/// the visitor's language that says what happened and where to go next.
struct VisitMiddleware: RouterMiddleware {
    static let spared = ["/inspector", "/sign-in", "/sign-out", "/operator"]

    let sealer: CookieSealer
    let pages: Pages
    let rehearsals: Rehearsals

    func handle(
        _ request: Request, context: StorefrontContext, next: (Request, StorefrontContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let visit = Visit(request, peer: context.connection.remoteAddress, sealer: sealer, books: pages.books)
        context.visit = visit
        var response: Response
        do {
            if visit.session != nil, let staged = try await rehearsed(request, context) {
                response = staged
            } else {
                response = try await next(request, context)
            }
        } catch is DroppedOnPurpose {
            try? await context.connection.close()
            throw CancellationError()
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            response = page(for: error, context: context)
        }
        return visit.handOutFormToken(with: response)
    }

    /// The failure page a signed-in seller rehearses for this request, after its delay; nil when
    /// the page is to be made as usual. Pages are never broken: broken answers are for the apps.
    private func rehearsed(_ request: Request, _ context: StorefrontContext) async throws -> Response? {
        guard let vendorID = context.visit.session?.vendorID,
            !Self.spared.contains(where: { request.uri.path.utf8.caselessStarts(with: $0.utf8) }),
            let staged = try? await rehearsals.nextStaging(for: vendorID)
        else { return nil }
        try await Task.sleep(for: staged.delay)
        switch staged.outcome {
        case .answer, .broken: return nil
        case .fail(let status):
            return pages.problem(
                HTTPResponse.Status(code: status),
                message: context.visit.words("rehearsedFailure", ["status": String(status)]), visit: context.visit)
        case .drop: throw DroppedOnPurpose()
        }
    }

    /// A failure as a page; anything unexpected is logged and shown without detail.
    private func page(for failure: any Error, context: StorefrontContext) -> Response {
        let visit = context.visit
        switch failure {
        case let error as MarketError:
            let status = APIErrorMiddleware<StorefrontContext>.status(of: error.kind)
            let message = error.kind == .notFound ? visit.words("noSuchProduct") : visit.words.refusal(error)
            return pages.problem(status, message: message, visit: visit).retrying(after: error.retryAfter)
        case let error as HTTPError:
            return pages.problem(error.status, message: error.body, visit: visit)
        case let error as any HTTPResponseError:
            return pages.problem(error.status, message: nil, visit: visit)
        default:
            context.logger.error("unexpected failure", metadata: ["error": "\(String(reflecting: failure))"])
            return pages.problem(.internalServerError, message: visit.words("ourFault"), visit: visit)
        }
    }
}

private struct DroppedOnPurpose: Error {}
