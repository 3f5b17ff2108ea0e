import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// Signing in and out, and registering a product as the signed-in vendor.
extension Storefront {
    @Sendable func signInPage(_ request: Request, context: StorefrontContext) async throws -> Response {
        signInForm(visit: context.visit, next: Self.localPath(request.queryFields["next"]))
    }

    @Sendable func signIn(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        let form = try await submission(&request, visit: visit)
        let next = Self.localPath(form["next"])
        let credentials = VendorCredentials(identifier: form["identifier"], secret: form["secret"])
        do {
            let session = try await service.signIn(credentials, from: visit.client)
            visit.signIn(session)
            visit.leave(notice: visit.words("signedInAs", ["name": session.vendor.name]))
            return redirect(to: next, visit: visit)
        } catch let error as MarketError where error.kind == .invalid || error.kind == .unauthorized {
            return signInForm(
                visit: visit, next: next, identifier: form["identifier"], status: .unauthorized,
                error: visit.words("wrongCredentials"))
        } catch let error as MarketError where error.kind == .throttled {
            return signInForm(
                visit: visit, next: next, identifier: form["identifier"], status: .tooManyRequests,
                error: visit.words("throttled", ["seconds": String(error.retryAfter ?? 1)])
            ).retrying(after: error.retryAfter)
        }
    }

    /// Ends the session on the server too: the cookie, replayed, opens nothing.
    @Sendable func signOut(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        _ = try await submission(&request, visit: visit)
        if let session = visit.session { try await service.signOut(token: session.token) }
        visit.signOut()
        visit.leave(notice: visit.words("signedOut"))
        return redirect(to: "/", visit: visit)
    }

    private func signInForm(
        visit: Visit, next: String, identifier: String = "", status: HTTPResponse.Status = .ok, error: String? = nil
    ) -> Response {
        pages.page(
            "sign-in", title: visit.words("signIn"), visit: visit, status: status,
            content: [
                "next": .text(next), "identifier": .text(identifier), "error": error.map(TemplateValue.text) ?? false,
            ])
    }

    /// Only a path on this site: a sign-in link must not send people elsewhere.
    private static func localPath(_ path: String?) -> String {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\") else { return "/" }
        return path
    }

    // MARK: Registering

    @Sendable func newProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        var visit = context.visit
        guard let session = visit.session, try await service.signedInVendor(token: session.token) != nil else {
            return signInAgain(&visit)
        }
        return productForm(
            ProductFormPage(
                action: "/products/new", entry: ProductEntry(stock: "1"), words: visit.words,
                sending: UUID().uuidString.lowercased()),
            visit: visit)
    }

    @Sendable func createProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        guard let session = visit.session, try await service.signedInVendor(token: session.token) != nil else {
            return signInAgain(&visit)
        }
        let form = try await submission(&request, visit: visit)
        let sending = form["sending"]
        if let registered = visit.sentForms[sending] {
            visit.leave(notice: visit.words("alreadyRegistered"))
            return redirect(to: "/products/\(registered)", visit: visit)
        }
        let entry = ProductEntry(form: form)
        do {
            let draft = try entry.draft(imageCount: form.images.count)
            let product = try await service.createProduct(
                draft, images: form.images, by: OwnershipProof(signedInWith: session.token, client: visit.client))
            if !sending.isEmpty { visit.remember(sending: sending, registered: product.id) }
            visit.leave(notice: visit.words("nowForSale", ["name": product.name]))
            return redirect(to: "/products/\(product.id)", visit: visit)
        } catch let error as MarketError where error == .sessionEnded {
            return signInAgain(&visit)
        } catch {
            return try refusedForm(error, action: "/products/new", entry: entry, sending: sending, visit: visit)
        }
    }

    /// To the sign-in page, and back to the sell form after it. A browser whose session has ended
    /// (signed out elsewhere, expired, or the secret changed) is told so.
    func signInAgain(_ visit: inout Visit, next: String = "/products/new") -> Response {
        if visit.session != nil {
            visit.signOut()
            visit.leave(notice: visit.words("signInEnded"))
        }
        return redirect(to: "/sign-in?next=\(next)", visit: visit)
    }

    /// The form again, with what is wrong beside its field (or above the form when no field is to
    /// blame) and everything typed kept. A failure no form can show, such as a product gone, goes on.
    func refusedForm(
        _ failure: any Error, action: String, entry: ProductEntry, editing product: Product? = nil,
        sending: String = "", visit: Visit
    ) throws -> Response {
        let words = visit.words
        var problems: [ProductEntry.Field: String] = [:]
        var formError: String?
        switch failure {
        case let entryProblems as ProductEntry.Problems:
            // The entry says each rule after the field's own name ("price must be …").
            for (field, text) in entryProblems.byField {
                problems[field] = words.rule(String(text.dropFirst(field.rawValue.count + 1)), field: field.marketField)
            }
        case let error as MarketError where error.kind != .notFound:
            if let field = ProductEntry.Field(blamed: error.field) {
                problems[field] = words.refusal(error)
            } else {
                formError = words.refusal(error)
            }
        default:
            throw failure
        }
        return productForm(
            ProductFormPage(
                action: action, entry: entry, words: words, editing: product, problems: problems,
                formError: formError, sending: sending),
            visit: visit, status: .unprocessableContent)
    }

    func productForm(_ form: ProductFormPage, visit: Visit, status: HTTPResponse.Status = .ok) -> Response {
        pages.page("product-form", title: form.heading, visit: visit, status: status, content: ["form": .object(form)])
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
