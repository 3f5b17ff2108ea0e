import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared

/// The storefront's page for a browser whose request failed outside the storefront's own addresses.
struct ProblemPagesForBrowsers: ProblemPages {
    let pages: Pages
    let sealer: CookieSealer

    func problem(_ status: HTTPResponse.Status, message: String?, for request: Request) -> Response {
        let visit = Visit(request, peer: nil, sealer: sealer, books: pages.books)
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
