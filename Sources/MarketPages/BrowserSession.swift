import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import NIOCore

/// A visitor as their cookies tell it: sign-in, form token, waiting notice and language. Cookies it sets
/// go out with the response it finishes.
package struct BrowserSession {
    package enum CookieName {
        package static let session = "market_session"
        package static let formToken = "market_form_token"
        package static let notice = "market_notice"
        package static let language = "market_lang"
    }

    package static let locationHeader = HTTPField.Name("Market-Location")!

    package let cipher: CookieCipher
    /// The cookies the browser sent, by name.
    package let cookies: [String: String]
    /// The request came over HTTPS (directly or through a proxy): cookies then say Secure.
    package let isSecure: Bool
    package let formToken: String
    /// The visitor came without a form token: `formToken` is new, and every answer hands it out.
    package let madeFormToken: Bool
    /// The storefront's script sent this request in the background and follows redirects itself.
    package let isScripted: Bool
    /// The sign-in this browser holds; the market still checks it before acting on it.
    package let session: SessionCookie?
    /// The language chosen on a page (`?lang=`, then remembered), else the browser's preference.
    package let strings: Localization
    /// The request this browser is for: each language link repeats its address.
    private let page: Request
    private let peer: SocketAddress?
    private(set) var cookiesToSet: [Cookie] = []

    package init(
        _ request: Request, peer: SocketAddress?, cipher: CookieCipher, localizations: [Language: Localization],
        now: Date = Date()
    ) {
        self.cipher = cipher
        cookies = Self.cookies(in: request.headers[values: .cookie])
        isSecure = request.scheme == "https"
        isScripted = request.headers[.requestedWith] == "fetch"
        session = cipher.open(SessionCookie.self, from: cookies[CookieName.session]).flatMap {
            $0.expires > now ? $0 : nil
        }
        let chosen = request.uri.query == nil ? nil : request.formQuery["lang"].flatMap(Language.init(rawValue:))
        let language =
            chosen ?? cookies[CookieName.language].flatMap(Language.init(rawValue:))
            ?? Language.preferred(by: request.headers[.acceptLanguage])
        strings = localizations[language] ?? localizations[.ko]!
        page = request
        self.peer = peer
        let token = cookies[CookieName.formToken].flatMap { $0.utf8.count == 64 ? $0 : nil }
        formToken = token ?? Digest.hex(RandomBytes.shared.take(32))
        madeFormToken = token == nil
        if let chosen { set(CookieName.language, chosen.rawValue, maxAge: 365 * 86400) }
    }

    package var language: Language { strings.language }

    /// The visitor's address, by which the market counts wrong secrets.
    /// Who sends the page's forms, which wrong secrets are counted by; a person's page is no team's.
    package var sender: RequestSender? { page.clientAddress(peer: peer).map { RequestSender(address: $0) } }

    /// This page again in each other language, for the switch every page shows (`language`, `name`,
    /// `url`). A form's answer links to the catalogue instead: its address only takes a post.
    package var otherLanguages: [PageContent] {
        var components = URLComponents()
        components.path = page.method == .get ? page.uri.path : "/"
        let kept =
            page.method == .get
            ? page.formQuery.filter { $0.key != "lang" }.sorted { $0.key < $1.key }.map {
                URLQueryItem(name: $0.key, value: $0.value)
            } : []
        return Language.allCases.filter { $0 != language }.map { other in
            components.queryItems = kept + [URLQueryItem(name: "lang", value: other.rawValue)]
            return [
                "language": other.rawValue, "name": other.name,
                "url": components.string ?? "/?lang=\(other.rawValue)",
            ]
        }
    }

    /// How long this browser's page may be kept: until the sign-in it shows ends, and not at all when it
    /// holds a form token made for this response alone (a signed-in visitor who came without one).
    package var cachePolicy: CachePolicy {
        CachePolicy(keep: !(madeFormToken && session != nil), expires: session?.expires)
    }

    /// A form's token matches this visitor's cookie (compared in constant time): the form came from one
    /// of our pages, not from another site posting in the visitor's name.
    package func acceptsForm(token: String?) -> Bool {
        guard let token, cookies[CookieName.formToken] != nil else { return false }
        let expected = Array(formToken.utf8)
        let given = Array(token.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Every cookie in `headers`, the first of each name kept (as Hummingbird's `Cookies` does), read
    /// in one pass: `Cookies` reads the header again for each name asked, and a page asks four or more.
    private static func cookies(in headers: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in headers {
            for pair in header.utf8.split(separator: UInt8(ascii: ";")) {
                let pair = pair.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = String(Substring(pair[..<equals]))
                if cookies[name] == nil { cookies[name] = String(Substring(pair[pair.index(after: equals)...])) }
            }
        }
        return cookies
    }

    /// Letters and digits of ASCII only: a cookie value may hold nothing else unescaped.
    private static let cookieSafe = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    package var notice: String? { cookies[CookieName.notice]?.removingPercentEncoding }

    package mutating func leave(notice: String) {
        set(CookieName.notice, notice.addingPercentEncoding(withAllowedCharacters: Self.cookieSafe) ?? "", maxAge: 60)
    }

    package mutating func clearNotice() {
        if cookies[CookieName.notice] != nil { set(CookieName.notice, "", maxAge: 0) }
    }

    package mutating func signIn(_ session: VendorSession) {
        set(CookieName.session, cipher.seal(SessionCookie(session)), maxAge: Int(VendorSession.lifetime))
    }

    package mutating func signOut() { set(CookieName.session, "", maxAge: 0) }

    /// The visitor is signed in as `product`'s vendor; the market checks the sign-in again before any change.
    package func owns(_ product: Product) -> Bool { session?.vendorID == product.vendor.id }

    package mutating func set(_ name: String, _ value: String, maxAge: Int?, path: String = "/", httpOnly: Bool = true)
    {
        cookiesToSet.append(
            Cookie(
                name: name, value: value, maxAge: maxAge, path: path, secure: isSecure, httpOnly: httpOnly,
                sameSite: .lax))
    }

    /// `response` with this browser's cookies set.
    package func finish(_ response: Response) -> Response {
        var response = response
        for cookie in cookiesToSet { response.setCookie(cookie) }
        return response
    }

    /// `response` with the form token this browser made, if any. Set outside the pages so that a page
    /// without forms is alike for every new visitor and can be kept.
    package func handOutFormToken(with response: Response) -> Response {
        guard madeFormToken else { return response }
        let cookie = "\(CookieName.formToken)=\(formToken); Path=/; HttpOnly; SameSite=Lax\(isSecure ? "; Secure" : "")"
        var response = response
        response.headers.append(HTTPField(name: .setCookie, value: cookie))
        return response
    }
}
