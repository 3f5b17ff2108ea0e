import Hummingbird
import MarketCore
import MarketHTTPShared
import NIOCore

/// A page request's context: the market's, plus the browser session behind it.
package struct PageRequestContext: ChildRequestContext, ConnectionRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let connection: any Channel
    package let team: Int64?
    /// Always nil: the pages show people the market as it is.
    package var rehearsal: CatalogueRehearsal?
    private var filledBrowser: BrowserSession?

    /// Filled once by `BrowserSessionMiddleware`, which runs before every page route.
    package var browser: BrowserSession {
        get {
            guard let filledBrowser else {
                preconditionFailure("BrowserSessionMiddleware runs before every page route")
            }
            return filledBrowser
        }
        set { filledBrowser = newValue }
    }

    package init(context: MarketRequestContext) {
        coreContext = context.coreContext
        connection = context.connection
        team = context.team
    }
}

/// Runs before every page route: reads the browser session, applies the faults a signed-in seller
/// rehearses (sparing the pages that switch them off, and signing in and out), and shows a failure as a page.
struct BrowserSessionMiddleware: RouterMiddleware {
    static let spared = ["/inspector", "/sign-in", "/sign-out", "/operator"]

    let website: Website

    func handle(
        _ request: Request, context: PageRequestContext, next: (Request, PageRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let browser = BrowserSession(
            request, peer: context.connection.remoteAddress, cipher: website.cipher,
            localizations: website.renderer.localizations)
        context.browser = browser
        var response: Response
        do {
            if browser.session != nil, let failure = try await injectedFailure(request, context) {
                response = failure
            } else {
                response = try await next(request, context)
            }
        } catch let error where error is ConnectionDropped || error is CancellationError {
            throw error
        } catch {
            response = page(for: error, context: context)
        }
        return browser.handOutFormToken(with: response)
    }

    /// The failure page a signed-in seller rehearses for this request, after its delay; nil when
    /// the page is to be made as usual. Pages are never broken: broken answers are for the apps.
    private func injectedFailure(_ request: Request, _ context: PageRequestContext) async throws -> Response? {
        guard let vendorID = context.browser.session?.vendorID,
            !Self.spared.contains(where: { request.uri.path.utf8.caselessStarts(with: $0.utf8) }),
            let fault = try? await website.faults.nextFault(for: vendorID)
        else { return nil }
        try await Task.sleep(for: fault.delay)
        switch fault.outcome {
        case .answer, .broken: return nil
        case .fail(let status):
            let browser = context.browser
            return website.renderer.problem(
                HTTPResponse.Status(code: status),
                message: browser.strings("rehearsedFailure", ["status": String(status)]), browser: browser)
        case .drop: try await context.dropConnection()
        }
    }

    /// A failure as a page; anything unexpected is logged and shown without detail.
    private func page(for failure: any Error, context: PageRequestContext) -> Response {
        let browser = context.browser
        let renderer = website.renderer
        switch failure {
        case let error as MarketError:
            let message =
                if case .noProduct = error.reason { browser.strings("noSuchProduct") } else {
                    browser.strings.refusal(error)
                }
            return renderer.problem(error.kind.status, message: message, browser: browser)
                .retrying(after: error.retryAfter)
        case let error as HTTPError:
            return renderer.problem(error.status, message: error.body, browser: browser)
        case let error as any HTTPResponseError:
            return renderer.problem(error.status, message: nil, browser: browser)
        default:
            context.logger.error("unexpected failure", metadata: ["error": "\(String(reflecting: failure))"])
            return renderer.problem(.internalServerError, message: browser.strings("ourFault"), browser: browser)
        }
    }
}
