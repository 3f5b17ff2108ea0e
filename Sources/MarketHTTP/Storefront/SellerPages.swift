import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketModel

/// Signing in and out, and registering a product as the signed-in vendor.
extension Storefront {
    @Sendable func signInPage(_ request: Request, context: Context) async throws -> Response {
        signInForm(visit: visit(request), next: Self.localPath(request.queryFields["next"]))
    }

    @Sendable func signIn(_ request: Request, context: Context) async throws -> Response {
        var request = request
        var visit = visit(request)
        let form = try await submission(&request, visit: visit)
        let next = Self.localPath(form["next"])
        let credentials = VendorCredentials(identifier: form["identifier"], secret: form["secret"])
        do {
            let vendor = try await service.authenticate(credentials)
            visit.signIn(
                VendorSession(
                    identifier: vendor.identifier, secret: credentials.secret, name: vendor.name,
                    expires: Date().addingTimeInterval(VendorSession.lifetime)))
            visit.leave(notice: "Signed in as \(vendor.name).")
            return redirect(to: next, visit: visit)
        } catch let error as MarketError where error.kind == .invalid || error.kind == .unauthorized {
            return signInForm(
                visit: visit, next: next, identifier: form["identifier"], status: .unauthorized,
                error: "That identifier and secret do not match a vendor. Check both and try again.")
        }
    }

    @Sendable func signOut(_ request: Request, context: Context) async throws -> Response {
        var request = request
        var visit = visit(request)
        _ = try await submission(&request, visit: visit)
        visit.signOut()
        visit.leave(notice: "You are signed out.")
        return redirect(to: "/", visit: visit)
    }

    private func signInForm(
        visit: Visit, next: String, identifier: String = "", status: HTTPResponse.Status = .ok, error: String? = nil
    ) -> Response {
        pages.page(
            "sign-in", title: "Sign in", visit: visit, status: status,
            content: ["next": next, "identifier": identifier, "error": error ?? false])
    }

    /// Only a path on this site: a sign-in link must not send people elsewhere.
    private static func localPath(_ path: String?) -> String {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\") else { return "/" }
        return path
    }

    // MARK: Registering

    @Sendable func newProduct(_ request: Request, context: Context) async throws -> Response {
        let visit = visit(request)
        guard visit.session != nil else { return redirect(to: "/sign-in?next=/products/new", visit: visit) }
        return productForm(ProductFormPage(action: "/products/new", entry: ProductEntry()), visit: visit)
    }

    @Sendable func createProduct(_ request: Request, context: Context) async throws -> Response {
        var request = request
        var visit = visit(request)
        guard let session = visit.session else { return redirect(to: "/sign-in?next=/products/new", visit: visit) }
        let form = try await submission(&request, visit: visit)
        let entry = ProductEntry(form: form)
        do {
            let draft = try entry.draft(imageCount: form.images.count)
            let product = try await service.createProduct(
                draft, images: form.images,
                by: VendorCredentials(identifier: session.identifier, secret: session.secret))
            visit.leave(notice: "“\(product.name)” is now for sale.")
            return redirect(to: "/products/\(product.id)", visit: visit)
        } catch let error as MarketError where error.kind == .unauthorized {
            visit.signOut()
            visit.leave(notice: "Your secret has changed since you signed in. Please sign in again.")
            return redirect(to: "/sign-in?next=/products/new", visit: visit)
        } catch {
            return try refusedForm(error, action: "/products/new", entry: entry, visit: visit)
        }
    }

    /// The form again, with what is wrong beside its field (or above the form when no field is to
    /// blame) and everything typed kept. A failure no form can show, such as a product gone, goes on.
    func refusedForm(
        _ failure: any Error, action: String, entry: ProductEntry, editing product: Product? = nil, visit: Visit
    ) throws -> Response {
        var problems: [ProductEntry.Field: String] = [:]
        var formError: String?
        switch failure {
        case let entryProblems as ProductEntry.Problems:
            problems = entryProblems.byField
        case let error as MarketError where error.kind != .notFound:
            if let field = ProductEntry.Field(blamed: error.field) {
                problems[field] = error.message
            } else {
                formError = error.message
            }
        default:
            throw failure
        }
        return productForm(
            ProductFormPage(action: action, entry: entry, editing: product, problems: problems, formError: formError),
            visit: visit, status: .unprocessableContent)
    }

    func productForm(_ form: ProductFormPage, visit: Visit, status: HTTPResponse.Status = .ok) -> Response {
        pages.page(
            "product-form", title: form.isEdit ? "Edit \(form.name.original)" : "Sell a product", visit: visit,
            status: status, content: ["form": form])
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
