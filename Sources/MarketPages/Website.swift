import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// What every module that serves pages shares: the renderer, the cookie cipher, the faults a
/// signed-in seller rehearses on their pages, and the steps every form and page takes.
package struct Website: Sendable {
    package let service: MarketService
    package let renderer: PageRenderer
    package let cipher: CookieCipher
    package let faults: FaultInjector
    package let teamAddresses: TeamAddresses

    /// The folder of the templates, phrases and assets every page shares.
    package static var resources: URL? { Bundle.module.resourceURL?.appendingPathComponent("pages") }

    /// `resources` are the other page modules' folders of templates, phrases and assets.
    package init(
        service: MarketService, faults: FaultInjector, teamAddresses: TeamAddresses, sessionKey: SessionKey,
        resources: [URL]
    ) throws {
        guard let own = Self.resources else {
            throw PageRenderer.TemplateError(description: "the pages' resources are missing")
        }
        self.service = service
        self.faults = faults
        self.teamAddresses = teamAddresses
        renderer = try PageRenderer(folders: [own] + resources)
        cipher = CookieCipher(keyBytes: sessionKey.bytes)
    }

    /// A group of page routes: each reads the browser session once and shows a failure as a page.
    package func pages(on router: Router<MarketRequestContext>) -> RouterGroup<PageRequestContext> {
        router.group(context: PageRequestContext.self).add(middleware: BrowserSessionMiddleware(website: self))
    }

    /// The stylesheet and the script, under their content hash.
    package func addAssetRoute(to router: Router<MarketRequestContext>) {
        let assets = renderer.assets
        router.get("assets/{name}") { _, context in try assets.response(named: context.parameters.get("name") ?? "") }
    }

    /// A form posted from one of our own pages: its token matches the visitor's cookie, and any `Origin` is
    /// this request's scheme, host and port (or a proxy's forwarded host). `Origin: null` is refused.
    package func submission(_ request: Request, browser: BrowserSession) async throws -> FormSubmission {
        let form = try await FormSubmission.read(request, strings: browser.strings)
        let scheme = request.scheme
        let ours = [request.head.authority, request.headers[.forwardedHost]].compactMap {
            $0.flatMap { Self.origin(URL(string: "\(scheme)://\($0)")) }
        }
        let origin = request.headers[.origin]
        let fromHere = origin == nil || Self.origin(origin.flatMap(URL.init(string:))).map(ours.contains) == true
        guard browser.acceptsForm(token: form["form_token"]), fromHere else {
            throw HTTPError(.forbidden, message: browser.strings("formExpired"))
        }
        return form
    }

    /// `scheme://host:port`, lowercased, default port written out, so two spellings of one origin compare equal.
    static func origin(_ url: URL?) -> String? {
        guard let url, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        guard let port = url.port ?? ["http": 80, "https": 443][scheme] else { return nil }
        return "\(scheme)://\(host):\(port)"
    }

    /// See Other, so that reloading never posts twice. The script is told where to go instead: a redirect
    /// it followed itself would use up the notice meant for the page it then opens.
    package func redirect(to location: String, browser: BrowserSession) -> Response {
        let (status, header): (HTTPResponse.Status, HTTPField.Name) =
            browser.isScripted ? (.noContent, BrowserSession.locationHeader) : (.seeOther, .location)
        return browser.finish(Response(status: status, headers: [header: location, .cacheControl: "no-store"]))
    }

    /// To the sign-in page, and back to `next` after it. A browser whose session has ended is told so.
    package func signInAgain(_ browser: inout BrowserSession, next: String) -> Response {
        if browser.session != nil {
            browser.signOut()
            browser.leave(notice: browser.strings("signInEnded"))
        }
        return redirect(to: "/sign-in?next=\(next)", browser: browser)
    }

    /// The vendor this browser is signed in as, while the market still holds their session.
    package func signedInVendor(_ browser: BrowserSession) async throws -> Vendor? {
        guard let session = browser.session else { return nil }
        return try await service.vendor(.session(token: session.token))
    }
}
