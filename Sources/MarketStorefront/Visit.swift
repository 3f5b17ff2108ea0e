import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import NIOCore

/// What the storefront knows about the person behind a request: their session, their form token,
/// the notice waiting for them and how they like the catalogue. Cookies it sets ride on the page.
struct Visit {
    enum CookieName {
        static let session = "market_session"
        static let formToken = "market_form_token"
        static let notice = "market_notice"
        static let editPass = "market_edit_pass"
        static let view = "market_view"
        static let operatorPass = "market_operator"
        static let language = "market_lang"
        static let sentForms = "market_sent"
        static let consoleResult = "market_console_result"
    }

    static let locationHeader = HTTPField.Name("Market-Location")!

    let sealer: CookieSealer
    let cookies: Cookies
    /// The request came over HTTPS (directly or through a proxy): cookies then say Secure.
    let isSecure: Bool
    let formToken: String
    /// The visitor came without a form token: `formToken` is new, and every answer hands it out.
    let madeFormToken: Bool
    /// The storefront's script sent this request in the background and follows redirects itself.
    let isScripted: Bool
    /// The sign-in this browser holds; the market still checks it before acting on it.
    let session: SessionCookie?
    /// The language every page of this visit speaks: the one chosen on a page (`?lang=`, then
    /// remembered), else the browser's preference.
    let words: Words
    /// The request this visit is for: each language link repeats its address.
    private let page: Request
    private let peer: SocketAddress?
    private(set) var cookiesToSet: [Cookie] = []

    init(
        _ request: Request, peer: SocketAddress?, sealer: CookieSealer, books: [Language: Words], now: Date = Date()
    ) {
        self.sealer = sealer
        cookies = request.cookies
        isSecure = request.scheme == "https"
        isScripted = request.headers[.requestedWith] == "fetch"
        session = sealer.open(SessionCookie.self, from: cookies[CookieName.session]?.value).flatMap {
            $0.expires > now ? $0 : nil
        }
        let chosen = request.uri.query == nil ? nil : request.formQuery["lang"].flatMap(Language.init(rawValue:))
        let language =
            chosen ?? cookies[CookieName.language].flatMap { Language(rawValue: $0.value) }
            ?? Language.preferred(by: request.headers[.acceptLanguage])
        words = books[language] ?? books[.ko]!
        page = request
        self.peer = peer
        if let token = cookies[CookieName.formToken]?.value, token.count == 64 {
            formToken = token
            madeFormToken = false
        } else {
            formToken = Digest.hex(RandomBytes.shared.take(32))
            madeFormToken = true
        }
        if let chosen { set(CookieName.language, chosen.rawValue, maxAge: 365 * 86400) }
    }

    var language: Language { words.language }

    /// Where the visitor is, which the market counts wrong secrets by.
    var client: String? { page.clientAddress(peer: peer) }

    /// This page again in each other language, for the switch every page shows.
    var otherLanguages: [LanguageLink] { LanguageLink.others(than: language, request: page) }

    /// How long a page of this visit may be kept and given again: one that shows a sign-in, until
    /// the sign-in ends; and not at all when it shows a form token made for this one response (a
    /// signed-in visitor who came without one), which another response would hand out anew.
    var cachePolicy: CachePolicy {
        CachePolicy(keep: !(madeFormToken && session != nil), expires: session?.expires)
    }

    /// A form's token matches this visitor's cookie: the form came from one of our pages, not from
    /// another site posting in the visitor's name.
    func acceptsForm(token: String?) -> Bool {
        guard let token, cookies[CookieName.formToken]?.value != nil else { return false }
        let expected = Array(formToken.utf8)
        let given = Array(token.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    var view: CatalogueView {
        CatalogueView(rawValue: cookies[CookieName.view]?.value ?? "") ?? .list
    }

    mutating func remember(view: CatalogueView) {
        // Scripts switch the view without a round trip, so this cookie is theirs to write too.
        cookiesToSet.append(
            Cookie(
                name: CookieName.view, value: view.rawValue, maxAge: 365 * 86400, path: "/", secure: isSecure,
                httpOnly: false, sameSite: .lax))
    }

    /// Letters and digits of ASCII only: a cookie value may hold nothing else unescaped.
    private static let cookieSafe = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    var notice: String? {
        cookies[CookieName.notice]?.value.removingPercentEncoding
    }

    mutating func leave(notice: String) {
        set(CookieName.notice, notice.addingPercentEncoding(withAllowedCharacters: Self.cookieSafe) ?? "", maxAge: 60)
    }

    mutating func clearNotice() {
        if cookies[CookieName.notice] != nil { set(CookieName.notice, "", maxAge: 0) }
    }

    mutating func signIn(_ session: VendorSession) {
        set(CookieName.session, sealer.seal(SessionCookie(session)), maxAge: Int(VendorSession.lifetime))
    }

    mutating func signOut() {
        set(CookieName.session, "", maxAge: 0)
    }

    func editPass(for productID: Int64, now: Date = Date()) -> EditPass? {
        sealer.open(EditPass.self, from: cookies[CookieName.editPass]?.value).flatMap {
            $0.productID == productID && $0.expires > now ? $0 : nil
        }
    }

    mutating func grant(_ pass: EditPass) {
        set(CookieName.editPass, sealer.seal(pass), maxAge: Int(EditPass.lifetime), path: Self.editPath(pass.productID))
    }

    mutating func revokeEditPass(for productID: Int64) {
        set(CookieName.editPass, "", maxAge: 0, path: Self.editPath(productID))
    }

    static func editPath(_ productID: Int64) -> String { "/products/\(productID)/edit" }

    /// The visitor is signed in as the vendor of `product` (the market checks the sign-in again
    /// before it changes anything).
    func owns(_ product: Product) -> Bool {
        session?.vendorID == product.vendor.id
    }

    /// The products this browser registered lately, by the sending that registered them: a form
    /// sent again (Back, then Register) finds its product here instead of making a second one.
    var sentForms: [String: Int64] {
        sealer.open([String: Int64].self, from: cookies[CookieName.sentForms]?.value) ?? [:]
    }

    mutating func remember(sending: String, registered productID: Int64) {
        var sent = sentForms
        if sent.count >= 8, let oldest = sent.min(by: { $0.value < $1.value }) { sent[oldest.key] = nil }
        sent[sending] = productID
        set(CookieName.sentForms, sealer.seal(sent), maxAge: 86400, path: "/products/new")
    }

    /// The operator signed in to the console in this browser, if any.
    func signedInOperator(now: Date = Date()) -> MarketOperator? {
        sealer.open(OperatorPass.self, from: cookies[CookieName.operatorPass]?.value).flatMap {
            $0.expires > now ? $0.operatorName : nil
        }
    }

    mutating func signIn(operator actor: MarketOperator, now: Date = Date()) {
        let pass = OperatorPass(operatorName: actor, expires: now.addingTimeInterval(OperatorPass.lifetime))
        set(CookieName.operatorPass, sealer.seal(pass), maxAge: Int(OperatorPass.lifetime), path: "/operator")
    }

    mutating func signOutOperator() {
        set(CookieName.operatorPass, "", maxAge: 0, path: "/operator")
    }

    /// What the operator's last act came to, for the console page the act redirects to: sealed,
    /// because a vendor's new secret rides in it, and shown once.
    var consoleResult: ConsoleResult? {
        sealer.open(ConsoleResult.self, from: cookies[CookieName.consoleResult]?.value)
    }

    mutating func leave(consoleResult: ConsoleResult) {
        set(CookieName.consoleResult, sealer.seal(consoleResult), maxAge: 60, path: "/operator")
    }

    mutating func clearConsoleResult() {
        if cookies[CookieName.consoleResult] != nil { set(CookieName.consoleResult, "", maxAge: 0, path: "/operator") }
    }

    private mutating func set(_ name: String, _ value: String, maxAge: Int?, path: String = "/") {
        cookiesToSet.append(
            Cookie(
                name: name, value: value, maxAge: maxAge, path: path, secure: isSecure, httpOnly: true,
                sameSite: .lax))
    }

    /// `response` with this visit's cookies set.
    func finish(_ response: Response) -> Response {
        var response = response
        for cookie in cookiesToSet { response.setCookie(cookie) }
        return response
    }

    /// `response` with the form token this visit made, if it made one (32 random bytes in hex, the
    /// proof that a form came from one of our pages). Set outside the pages themselves, so that a
    /// page without forms is the same for every new visitor and can be kept. The header is written
    /// out here: every response to a new visitor carries one, and building a `Cookie` cost more.
    func handOutFormToken(with response: Response) -> Response {
        guard madeFormToken else { return response }
        var response = response
        response.headers.append(
            HTTPField(
                name: .setCookie,
                value: "\(CookieName.formToken)=\(formToken); Path=/; HttpOnly; SameSite=Lax\(isSecure ? "; Secure" : "")"))
        return response
    }
}

enum CatalogueView: String {
    case list
    case grid
}

/// A link to the page being shown, in another language.
struct LanguageLink {
    var language: String
    var name: String
    var url: String

    /// Links for every language but `current`. A form's answer links to the catalogue instead: its
    /// address only takes a post.
    static func others(than current: Language, request: Request) -> [LanguageLink] {
        var components = URLComponents()
        components.path = request.method == .get ? request.uri.path : "/"
        let kept =
            request.method == .get
            ? request.formQuery.filter { $0.key != "lang" }.sorted { $0.key < $1.key }.map {
                URLQueryItem(name: $0.key, value: $0.value)
            } : []
        return Language.allCases.filter { $0 != current }.map { language in
            components.queryItems = kept + [URLQueryItem(name: "lang", value: language.rawValue)]
            return LanguageLink(
                language: language.rawValue, name: language.name,
                url: components.string ?? "/?lang=\(language.rawValue)")
        }
    }
}
