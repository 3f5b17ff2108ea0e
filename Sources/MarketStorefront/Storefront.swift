import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// The web pages people browse, buy and sell with, served beside the API from the same service.
/// Pages are rendered on the server and work without scripts; the script only makes them smoother.
package struct Storefront: Sendable {
    static var pageSize: Int { 20 }

    let service: MarketService
    let rehearsals: Rehearsals
    /// Fills an emptied market with the demo catalogue again; returns how many products it added.
    let restock: @Sendable () async throws -> Int
    let pages: Pages
    let sealer: CookieSealer

    /// `sessionKey` seals the storefront's cookies; markets that share a store share it too.
    package init(
        service: MarketService, rehearsals: Rehearsals, sessionKey: SessionKey,
        restock: @escaping @Sendable () async throws -> Int
    ) throws {
        self.service = service
        self.rehearsals = rehearsals
        self.restock = restock
        pages = try Pages()
        sealer = CookieSealer(keyBytes: sessionKey.bytes)
    }

    /// The pages a browser gets for failures outside the storefront's own addresses.
    package var problemPages: some ProblemPages {
        ProblemPagesForBrowsers(pages: pages, sealer: sealer)
    }

    /// `cache` keeps the catalogue's and products' pages it gave until the catalogue changes.
    package func addRoutes(to router: Router<MarketRequestContext>, cache: ResponseCache) {
        let group = router.group(context: StorefrontContext.self)
            .add(middleware: VisitMiddleware(sealer: sealer, pages: pages, rehearsals: rehearsals))
        let browsing = group.caching(in: cache, version: service.catalogueVersion) { $0.visit.cachePolicy }
        browsing.get("/", use: catalogue)
        browsing.get("suggestions", use: suggestions)
        group.get("products/new", use: newProduct)
        group.post("products/new", use: createProduct)
        browsing.get("products/{id}", use: productPage)
        group.get("products/{id}/edit", use: editProduct)
        group.post("products/{id}/edit", use: saveProduct)
        group.post("products/{id}/edit/unlock", use: unlockEditing)
        group.get("products/{id}/delete", use: confirmDelete)
        group.post("products/{id}/delete", use: deleteProduct)
        group.get("sign-in", use: signInPage)
        group.post("sign-in", use: signIn)
        group.post("sign-out", use: signOut)
        group.get("inspector", use: inspector)
        group.get("inspector/live", use: liveInspector)
        group.post("inspector/rehearsal", use: saveFaults)
        group.post("inspector/products/delete", use: deleteAllProducts)
        group.get("operator", use: console)
        group.post("operator/sign-in", use: operatorSignIn)
        group.post("operator/sign-out", use: operatorSignOut)
        group.post("operator/vendors", use: registerVendor)
        group.post("operator/vendors/secret", use: rekeyVendor)
        group.post("operator/products/remove", use: removeProduct)
        group.post("operator/products/hide", use: hideProduct)
        group.post("operator/products/show", use: showProduct)
        group.post("operator/reset", use: resetMarket)
        router.get("assets/{name}") { _, context in try asset(named: context.parameters.get("name") ?? "") }
    }

    /// A form posted from one of our own pages: the token matches the visitor's cookie and, where
    /// the browser says where the form came from, it came from here: the same scheme, host and port
    /// as this request (or as the host a proxy in front says it forwarded). `Origin: null` is not here.
    func submission(_ request: inout Request, visit: Visit) async throws -> FormSubmission {
        let form = try await FormSubmission.read(&request, words: visit.words)
        let scheme = request.scheme
        let ours = [request.head.authority, request.headers[.forwardedHost]].compactMap {
            $0.flatMap { Self.origin(URL(string: "\(scheme)://\($0)")) }
        }
        let origin = request.headers[.origin]
        let fromHere = origin == nil || Self.origin(origin.flatMap(URL.init(string:))).map(ours.contains) == true
        guard visit.acceptsForm(token: form["form_token"]), fromHere else {
            throw HTTPError(.forbidden, message: visit.words("formExpired"))
        }
        return form
    }

    /// `scheme://host:port`, lowercased and with the scheme's default port written out, so that
    /// two spellings of one origin compare equal.
    static func origin(_ url: URL?) -> String? {
        guard let url, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        guard let port = url.port ?? ["http": 80, "https": 443][scheme] else { return nil }
        return "\(scheme)://\(host):\(port)"
    }

    /// See Other: after a form, the browser shows `location` with a GET, so reloading never posts twice.
    /// The script is told where to go instead: a redirect it followed itself would use up the notice
    /// meant for the page it then opens.
    func redirect(to location: String, visit: Visit) -> Response {
        let response =
            visit.isScripted
            ? Response(status: .noContent, headers: [Visit.locationHeader: location, .cacheControl: "no-store"])
            : Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        return visit.finish(response)
    }

    func asset(named name: String) throws -> Response {
        guard let asset = pages.assets.asset(named: name) else {
            throw HTTPError(.notFound)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: asset.contentType, .cacheControl: "public, max-age=31536000, immutable",
                .contentLength: String(asset.data.count),
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: asset.data)))
    }
}
