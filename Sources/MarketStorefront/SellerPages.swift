import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketPages

/// Signing in and out, and registering a product as the signed-in vendor.
extension Storefront {
    @Sendable func signInPage(_ request: Request, context: PageRequestContext) async throws -> Response {
        signInForm(browser: context.browser, next: Self.localPath(request.queryFields["next"]))
    }

    @Sendable func signIn(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        let form = try await website.submission(request, browser: browser)
        let next = Self.localPath(form["next"])
        let credentials = VendorCredentials(identifier: form["identifier"], secret: form["secret"])
        do {
            let session = try await service.signIn(credentials, from: browser.sender)
            browser.signIn(session)
            browser.leave(notice: browser.strings("signedInAs", ["name": session.vendor.name]))
            return website.redirect(to: next, browser: browser)
        } catch let error as MarketError where [.invalid, .unauthorized, .throttled].contains(error.kind) {
            let (status, message) = signInRefusal(error, wrong: "wrongCredentials", browser.strings)
            return signInForm(
                browser: browser, next: next, identifier: form["identifier"], status: status, error: message
            ).retrying(after: error.retryAfter)
        }
    }

    /// A refused sign-in's status and words: how long to wait after too many tries, else the phrase `wrong`.
    func signInRefusal(_ error: MarketError, wrong: String, _ strings: Localization) -> (HTTPResponse.Status, String) {
        error.kind == .throttled
            ? (.tooManyRequests, strings("throttled", ["seconds": String(error.retryAfter ?? 1)]))
            : (.unauthorized, strings(wrong))
    }

    /// Ends the session on the server too: the cookie, replayed, opens nothing.
    @Sendable func signOut(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        _ = try await website.submission(request, browser: browser)
        if let session = browser.session { try await service.signOut(token: session.token) }
        browser.signOut()
        browser.leave(notice: browser.strings("signedOut"))
        return website.redirect(to: "/", browser: browser)
    }

    private func signInForm(
        browser: BrowserSession, next: String, identifier: String = "", status: HTTPResponse.Status = .ok,
        error: String? = nil
    ) -> Response {
        renderer.page(
            "sign-in", title: browser.strings("signIn"), browser: browser, status: status,
            content: ["next": next, "identifier": identifier, "error": error])
    }

    /// Only a path on this site: a sign-in link must not send people elsewhere.
    private static func localPath(_ path: String?) -> String {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\") else { return "/" }
        return path
    }

    // MARK: Registering

    @Sendable func newProduct(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        guard try await website.signedInVendor(browser) != nil else {
            return website.signInAgain(&browser, next: "/products/new")
        }
        let form = ProductFormPage(
            action: "/products/new", entry: ProductEntry(stock: "1"), strings: browser.strings,
            sending: UUID().uuidString.lowercased())
        return productForm(form, browser: browser)
    }

    @Sendable func createProduct(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        guard let session = browser.session, try await website.signedInVendor(browser) != nil else {
            return website.signInAgain(&browser, next: "/products/new")
        }
        let form = try await website.submission(request, browser: browser)
        let sending = form["sending"]
        if let registered = browser.sentForms[sending] {
            browser.leave(notice: browser.strings("alreadyRegistered"))
            return website.redirect(to: "/products/\(registered)", browser: browser)
        }
        let entry = ProductEntry(form: form)
        do {
            let draft = try entry.draft(imageCount: form.images.count)
            let product = try await service.createProduct(
                draft, images: form.images, by: OwnershipProof(signedInWith: session.token, sender: browser.sender))
            if !sending.isEmpty { browser.remember(sending: sending, registered: product.id) }
            browser.leave(notice: browser.strings("nowForSale", ["name": product.name]))
            return website.redirect(to: "/products/\(product.id)", browser: browser)
        } catch let error as MarketError where error == .sessionEnded {
            return website.signInAgain(&browser, next: "/products/new")
        } catch {
            return try refusedForm(error, action: "/products/new", entry: entry, sending: sending, browser: browser)
        }
    }

    /// The form again, with what is wrong beside its field (or above the form when no field is to
    /// blame) and everything typed kept. A failure no form can show, such as a product gone, goes on.
    func refusedForm(
        _ failure: any Error, action: String, entry: ProductEntry, editing product: Product? = nil,
        sending: String = "", browser: BrowserSession
    ) throws -> Response {
        let strings = browser.strings
        var problems: [ProductEntry.Field: String] = [:]
        var formError: String?
        switch failure {
        case let entryProblems as ProductEntry.Problems:
            for (field, rule) in entryProblems.rules { problems[field] = strings.rule(rule, field: field.marketField) }
        case let error as MarketError where error.kind != .notFound:
            if let field = ProductEntry.Field(blamed: error.field) {
                problems[field] = strings.refusal(error)
            } else {
                formError = strings.refusal(error)
            }
        default:
            throw failure
        }
        let form = ProductFormPage(
            action: action, entry: entry, strings: strings, editing: product, problems: problems, formError: formError,
            sending: sending)
        return productForm(form, browser: browser, status: .unprocessableContent)
    }

    func productForm(_ form: ProductFormPage, browser: BrowserSession, status: HTTPResponse.Status = .ok) -> Response {
        renderer.page(
            "product-form", title: form.heading, browser: browser, status: status, content: ["form": form.content])
    }
}

extension ProductEntry {
    init(form: FormSubmission) {
        self.init(
            name: form["name"], description: form["description"].replacingOccurrences(of: "\r\n", with: "\n"),
            price: form["price"], discount: form["discount"], stock: form["stock"],
            currency: Currency(code: form["currency"]) ?? .krw)
    }
}
