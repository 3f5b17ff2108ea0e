import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared

/// Turns a failure behind a page into a page in the storefront's style that says what happened and
/// where to go next. Anything unexpected is logged and shown without detail.
struct PageErrorMiddleware: FailureMiddleware {
    typealias Context = StorefrontContext
    let pages: Pages

    func response(to failure: any Error, of request: Request, context: StorefrontContext) -> Response {
        let visit = context.visit
        switch failure {
        case let error as MarketError:
            let status = APIErrorMiddleware<StorefrontContext>.status(of: error.kind)
            let message =
                error.kind == .notFound
                ? "There is no such product; it may have been deleted." : error.message(naming: FieldNames.name)
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

/// The storefront's page for a browser whose request failed outside the storefront's own addresses.
struct ProblemPagesForBrowsers: ProblemPages {
    let pages: Pages
    let sealer: CookieSealer

    func problem(_ status: HTTPResponse.Status, message: String?, for request: Request) -> Response {
        pages.problem(status, message: message, visit: Visit(request, sealer: sealer))
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
