import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketPages

/// Editing and deleting, as the product's signed-in seller or with its secret; the service checks either each time.
extension Storefront {
    @Sendable func editProduct(_ request: Request, context: PageRequestContext) async throws -> Response {
        let browser = context.browser
        let product = try await service.product(id: try context.productID())
        guard browser.owns(product) || browser.editPass(for: product.id) != nil else {
            return unlockForm(product, browser: browser)
        }
        let form = ProductFormPage(
            action: BrowserSession.editPath(product.id), entry: ProductEntry(product), strings: browser.strings,
            editing: product)
        return productForm(form, browser: browser)
    }

    @Sendable func unlockEditing(_ request: Request, context: PageRequestContext) async throws -> Response {
        let (product, form) = try await ownerForm(request, context)
        var browser = context.browser
        do {
            _ = try await service.product(
                id: product.id, for: .owner(OwnershipProof(secret: form["secret"], sender: browser.sender)))
        } catch let error as MarketError where error.isWrongSecret {
            return unlockForm(
                product, browser: browser, error: Self.wrongSecret(form["secret"], strings: browser.strings))
        }
        let expires = Date().addingTimeInterval(EditPass.lifetime)
        browser.grant(EditPass(productID: product.id, secret: form["secret"], expires: expires))
        return website.redirect(to: BrowserSession.editPath(product.id), browser: browser)
    }

    @Sendable func saveProduct(_ request: Request, context: PageRequestContext) async throws -> Response {
        let (product, form) = try await ownerForm(request, context)
        var browser = context.browser
        let strings = browser.strings
        guard let proof = proof(for: product, browser: browser) else {
            return unlockForm(product, browser: browser, error: strings("editTimeRanOut"))
        }
        let entry = ProductEntry(form: form)
        let images = form.images.isEmpty ? nil : form.images
        do {
            let draft = try entry.draft(imageCount: images?.count)
            _ = try await service.updateProduct(
                id: product.id, entry.changes(from: ProductEntry(product), draft: draft), images: images, proof: proof)
        } catch let error as MarketError where error == .sessionEnded {
            return website.signInAgain(&browser, next: BrowserSession.editPath(product.id))
        } catch let error as MarketError where error.isWrongSecret {
            browser.revokeEditPass(for: product.id)
            return unlockForm(product, browser: browser, error: strings("secretChanged"))
        } catch {
            return try refusedForm(
                error, action: BrowserSession.editPath(product.id), entry: entry, editing: product, browser: browser)
        }
        browser.revokeEditPass(for: product.id)
        browser.leave(notice: strings("changesSaved"))
        return website.redirect(to: "/products/\(product.id)", browser: browser)
    }

    /// What lets this visitor change `product`: being signed in as its vendor, else an edit pass
    /// holding the secret they typed; nil when they have neither.
    private func proof(for product: Product, browser: BrowserSession) -> OwnershipProof? {
        sellersProof(for: product, browser: browser)
            ?? browser.editPass(for: product.id).map { OwnershipProof(secret: $0.secret, sender: browser.sender) }
    }

    /// The sign-in of `product`'s seller, when that is who this visitor is.
    private func sellersProof(for product: Product, browser: BrowserSession) -> OwnershipProof? {
        guard browser.owns(product), let session = browser.session else { return nil }
        return OwnershipProof(signedInWith: session.token, sender: browser.sender)
    }

    /// A form posted about one product: the product as it is, and the form.
    private func ownerForm(
        _ request: Request, _ context: PageRequestContext
    ) async throws -> (Product, FormSubmission) {
        let product = try await service.product(id: try context.productID())
        return (product, try await website.submission(request, browser: context.browser))
    }

    private func unlockForm(_ product: Product, browser: BrowserSession, error: String? = nil) -> Response {
        let heading = browser.strings("editProduct", ["name": product.name])
        let sheet = ProductSheet(product, strings: browser.strings)
        return renderer.page(
            "unlock", title: heading, browser: browser, status: error == nil ? .ok : .forbidden,
            content: ["product": sheet.content, "heading": heading, "error": error])
    }

    private static func wrongSecret(_ secret: String, strings: Localization) -> String {
        secret.isEmpty ? strings("enterSecret") : strings("wrongSecret")
    }

    // MARK: Deleting

    @Sendable func confirmDelete(_ request: Request, context: PageRequestContext) async throws -> Response {
        deleteForm(try await service.product(id: try context.productID()), browser: context.browser)
    }

    @Sendable func deleteProduct(_ request: Request, context: PageRequestContext) async throws -> Response {
        let (product, form) = try await ownerForm(request, context)
        var browser = context.browser
        let proof =
            sellersProof(for: product, browser: browser)
            ?? OwnershipProof(secret: form["secret"], sender: browser.sender)
        do {
            _ = try await service.deleteProduct(id: product.id, proof: proof)
        } catch let error as MarketError where error == .sessionEnded {
            return website.signInAgain(&browser, next: "/products/\(product.id)")
        } catch let error as MarketError where error.isWrongSecret {
            return deleteForm(
                product, browser: browser, error: Self.wrongSecret(form["secret"], strings: browser.strings))
        }
        browser.leave(notice: browser.strings("deleted", ["name": product.name]))
        return website.redirect(to: "/", browser: browser)
    }

    private func deleteForm(_ product: Product, browser: BrowserSession, error: String? = nil) -> Response {
        let sheet = ProductSheet(product, strings: browser.strings, isOwner: browser.owns(product))
        return renderer.page(
            "delete", title: sheet.deleteQuestion, browser: browser, status: error == nil ? .ok : .forbidden,
            content: ["product": sheet.content, "secretError": error, "standalone": true])
    }
}

extension ProductEntry {
    /// The product as its form shows it, amounts with their thousands grouped.
    init(_ product: Product) {
        self.init(
            name: product.name, description: product.description, price: Localization.grouped(product.price),
            discount: product.discount == 0 ? "" : Localization.grouped(product.discount),
            stock: Localization.grouped(product.stock), currency: product.currency)
    }
}

extension MarketError {
    /// The secret given does not prove ownership: missing, wrong, or another vendor's.
    var isWrongSecret: Bool { kind == .unauthorized || kind == .forbidden || (kind == .invalid && field == .secret) }
}
