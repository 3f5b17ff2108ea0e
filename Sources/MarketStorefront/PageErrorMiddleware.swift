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
            let message = error.kind == .notFound ? visit.words("noSuchProduct") : visit.words.refusal(error)
            return pages.problem(status, message: message, visit: visit).retrying(after: error.retryAfter)
        case let error as HTTPError:
            return pages.problem(error.status, message: error.body, visit: visit)
        case let error as any HTTPResponseError:
            return pages.problem(error.status, message: nil, visit: visit)
        default:
            context.logger.error("unexpected failure", metadata: ["error": "\(String(reflecting: failure))"])
            return pages.problem(
                .internalServerError,
                message: visit.words("ourFault"), visit: visit)
        }
    }
}

/// The storefront's page for a browser whose request failed outside the storefront's own addresses.
struct ProblemPagesForBrowsers: ProblemPages {
    let pages: Pages
    let sealer: CookieSealer

    func problem(_ status: HTTPResponse.Status, message: String?, for request: Request) -> Response {
        let visit = Visit(request, sealer: sealer, books: pages.books)
        return visit.handOutFormToken(with: pages.problem(status, message: message, visit: visit))
    }
}

extension Pages {
    /// The page for a failure: its status as a heading, what happened and a way back.
    func problem(_ status: HTTPResponse.Status, message: String?, visit: Visit) -> Response {
        let words = visit.words
        let heading =
            switch status {
            case .notFound: words("notFound")
            case .forbidden: words("notAllowed")
            case .contentTooLarge: words("tooLarge")
            case .serviceUnavailable: words("closedForAMoment")
            case .tooManyRequests: words("tooManyTries")
            default: words.language == .en ? status.reasonPhrase : words("somethingWentWrong")
            }
        let fallback = status == .notFound ? words("nothingHere") : words("couldNotDoThat")
        return page(
            "problem", title: heading, visit: visit, status: status,
            content: ["heading": .text(heading), "message": .text(message ?? fallback), "code": .number(status.code)])
    }
}
