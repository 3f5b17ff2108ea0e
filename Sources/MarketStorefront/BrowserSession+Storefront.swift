import Foundation
import Hummingbird
import MarketCore
import MarketModel
import MarketPages

/// The storefront's own cookies: catalogue view, edit pass, forms sent lately, the operator's sign-in and last result.
extension BrowserSession {
    enum StorefrontCookie {
        static let editPass = "market_edit_pass"
        static let view = "market_view"
        static let operatorPass = "market_operator"
        static let sentForms = "market_sent"
        static let consoleResult = "market_console_result"
    }

    var view: CatalogueView { CatalogueView(rawValue: cookies[StorefrontCookie.view] ?? "") ?? .list }

    mutating func remember(view: CatalogueView) {
        // Scripts switch the view without a round trip, so this cookie is theirs to write too.
        set(StorefrontCookie.view, view.rawValue, maxAge: 365 * 86400, httpOnly: false)
    }

    func editPass(for productID: Int64, now: Date = Date()) -> EditPass? {
        cipher.open(EditPass.self, from: cookies[StorefrontCookie.editPass]).flatMap {
            $0.productID == productID && $0.expires > now ? $0 : nil
        }
    }

    mutating func grant(_ pass: EditPass) {
        set(
            StorefrontCookie.editPass, cipher.seal(pass), maxAge: Int(EditPass.lifetime),
            path: Self.editPath(pass.productID))
    }

    mutating func revokeEditPass(for productID: Int64) {
        set(StorefrontCookie.editPass, "", maxAge: 0, path: Self.editPath(productID))
    }

    static func editPath(_ productID: Int64) -> String { "/products/\(productID)/edit" }

    /// The products this browser registered lately, by the sending that registered them: a form
    /// sent again (Back, then Register) finds its product here instead of making a second one.
    var sentForms: [String: Int64] {
        cipher.open([String: Int64].self, from: cookies[StorefrontCookie.sentForms]) ?? [:]
    }

    mutating func remember(sending: String, registered productID: Int64) {
        var sent = sentForms
        if sent.count >= 8, let oldest = sent.min(by: { $0.value < $1.value }) { sent[oldest.key] = nil }
        sent[sending] = productID
        set(StorefrontCookie.sentForms, cipher.seal(sent), maxAge: 86400, path: "/products/new")
    }

    /// The operator signed in to the console in this browser, if any.
    func signedInOperator(now: Date = Date()) -> MarketOperator? {
        cipher.open(OperatorPass.self, from: cookies[StorefrontCookie.operatorPass]).flatMap {
            $0.expires > now ? $0.operatorName : nil
        }
    }

    mutating func signIn(operator actor: MarketOperator, now: Date = Date()) {
        let pass = OperatorPass(operatorName: actor, expires: now.addingTimeInterval(OperatorPass.lifetime))
        set(StorefrontCookie.operatorPass, cipher.seal(pass), maxAge: Int(OperatorPass.lifetime), path: "/operator")
    }

    mutating func signOutOperator() { set(StorefrontCookie.operatorPass, "", maxAge: 0, path: "/operator") }

    /// What the operator's last act came to, for the console page the act redirects to: sealed,
    /// because a vendor's new secret rides in it, and shown once.
    var consoleResult: ConsoleResult? {
        cipher.open(ConsoleResult.self, from: cookies[StorefrontCookie.consoleResult])
    }

    mutating func leave(consoleResult: ConsoleResult) {
        set(StorefrontCookie.consoleResult, cipher.seal(consoleResult), maxAge: 60, path: "/operator")
    }

    mutating func clearConsoleResult() {
        if cookies[StorefrontCookie.consoleResult] != nil {
            set(StorefrontCookie.consoleResult, "", maxAge: 0, path: "/operator")
        }
    }
}

enum CatalogueView: String { case list, grid }

/// An operator's sign-in, kept in a cookie scoped to the console for two hours.
struct OperatorPass: Codable, Sendable {
    static let lifetime: TimeInterval = 2 * 3600
    var operatorName: MarketOperator
    var expires: Date
}

/// Proof that the person editing a product gave its secret, kept half an hour in a cookie scoped to its edit page.
struct EditPass: Codable, Sendable {
    static let lifetime: TimeInterval = 30 * 60
    var productID: Int64
    var secret: String
    var expires: Date
}
