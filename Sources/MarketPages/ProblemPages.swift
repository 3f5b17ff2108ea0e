import Hummingbird
import MarketCore
import MarketHTTPShared

/// The page for a browser whose request failed outside the pages' own addresses.
extension Website: ProblemPages {
    package func problem(_ status: HTTPResponse.Status, refusal: MarketError?, for request: Request) -> Response {
        let browser = BrowserSession(request, peer: nil, cipher: cipher, localizations: renderer.localizations)
        let message =
            status == .methodNotAllowed
            ? browser.strings("methodNotTaken", ["method": request.method.rawValue])
            : refusal.map(browser.strings.refusal)
        return browser.handOutFormToken(with: renderer.problem(status, message: message, browser: browser))
    }
}

extension PageRenderer {
    /// The page for a failure: its status as a heading, what happened and a way back.
    package func problem(_ status: HTTPResponse.Status, message: String?, browser: BrowserSession) -> Response {
        let strings = browser.strings
        let heading =
            switch status {
            case .notFound: strings("notFound")
            case .forbidden: strings("notAllowed")
            case .contentTooLarge: strings("tooLarge")
            case .serviceUnavailable: strings("closedForAMoment")
            case .tooManyRequests: strings("tooManyTries")
            default: strings.language == .en ? status.reasonPhrase : strings("somethingWentWrong")
            }
        let fallback = status == .notFound ? strings("nothingHere") : strings("couldNotDoThat")
        return page(
            "problem", title: heading, browser: browser, status: status,
            content: ["heading": heading, "message": message ?? fallback, "code": status.code])
    }
}
