import HTTPTypes
import Hummingbird
import MarketCore

/// Turns a failure behind a page into a page in the storefront's style that says what happened and
/// where to go next. Anything unexpected is logged and shown without detail.
struct PageErrorMiddleware<Context: RequestContext>: FailureMiddleware {
    let pages: Pages
    let sealer: CookieSealer

    func response(to failure: any Error, of request: Request, context: Context) -> Response {
        let visit = Visit(request, sealer: sealer)
        switch failure {
        case let error as MarketError:
            let status = APIErrorMiddleware<Context>.status(of: error.kind)
            let message =
                error.kind == .notFound ? "There is no such product; it may have been deleted." : error.message
            return pages.problem(status, message: message, visit: visit).retrying(after: error.retryAfter)
        case let error as HTTPError:
            return pages.problem(error.status, message: error.body, visit: visit)
        case let error as any HTTPResponseError:
            return pages.problem(error.status, message: nil, visit: visit)
        default:
            context.logger.error("unexpected failure", metadata: ["error": "\(String(reflecting: failure))"])
            return pages.problem(
                .internalServerError,
                message: "Something went wrong on our side. It has been logged; please try again.", visit: visit)
        }
    }
}

extension Pages {
    /// The page for a failure: its status as a heading, what happened and a way back.
    func problem(_ status: HTTPResponse.Status, message: String?, visit: Visit) -> Response {
        let heading =
            switch status {
            case .notFound: "Not found"
            case .forbidden: "Not allowed"
            case .contentTooLarge: "Too large"
            case .serviceUnavailable: "Closed for a moment"
            case .tooManyRequests: "Too many tries"
            default: status.reasonPhrase
            }
        let fallback =
            status == .notFound ? "There is nothing at this address." : "The market could not do that."
        return page(
            "problem", title: heading, visit: visit, status: status,
            content: ["heading": heading, "message": message ?? fallback, "code": status.code])
    }
}
