import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// Editing and deleting: by the vendor signed in as the product's seller, or with the product's
/// secret; the service checks either each time.
extension Storefront {
    @Sendable func editProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        let visit = context.visit
        let product = try await service.product(id: try context.productID())
        guard visit.owns(product) || visit.editPass(for: product.id) != nil else {
            return unlockForm(product, visit: visit)
        }
        return productForm(
            ProductFormPage(
                action: Visit.editPath(product.id), entry: ProductEntry(product), words: visit.words, editing: product),
            visit: visit)
    }

    @Sendable func unlockEditing(_ request: Request, context: StorefrontContext) async throws -> Response {
        let (sender, product, form) = try await ownerForm(request, context)
        var visit = sender
        do {
            try await service.checkOwnership(
                of: product.id, proof: OwnershipProof(secret: form["secret"], client: visit.client))
        } catch let error as MarketError where error.isWrongSecret {
            return unlockForm(product, visit: visit, error: Self.wrongSecret(form["secret"], words: visit.words))
        }
        visit.grant(
            EditPass(
                productID: product.id, secret: form["secret"], expires: Date().addingTimeInterval(EditPass.lifetime)))
        return redirect(to: Visit.editPath(product.id), visit: visit)
    }

    @Sendable func saveProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        let (sender, product, form) = try await ownerForm(request, context)
        var visit = sender
        let words = visit.words
        guard let proof = proof(for: product, visit: visit) else {
            return unlockForm(product, visit: visit, error: words("editTimeRanOut"))
        }
        let original = ProductEntry(product)
        let entry = ProductEntry(form: form)
        let images = form.images.isEmpty ? nil : form.images
        do {
            let draft = try entry.draft(imageCount: images?.count)
            _ = try await service.updateProduct(
                id: product.id, entry.changes(from: original, draft: draft), images: images, proof: proof)
        } catch let error as MarketError where error == .sessionEnded {
            return signInAgain(&visit, next: Visit.editPath(product.id))
        } catch let error as MarketError where error.isWrongSecret {
            visit.revokeEditPass(for: product.id)
            return unlockForm(product, visit: visit, error: words("secretChanged"))
        } catch {
            return try refusedForm(
                error, action: Visit.editPath(product.id), entry: entry, editing: product, visit: visit)
        }
        visit.revokeEditPass(for: product.id)
        visit.leave(notice: words("changesSaved"))
        return redirect(to: "/products/\(product.id)", visit: visit)
    }

    /// What lets this visitor change `product`: being signed in as its vendor, else an edit pass
    /// holding the secret they typed; nil when they have neither.
    private func proof(for product: Product, visit: Visit) -> OwnershipProof? {
        sellersProof(for: product, visit: visit)
            ?? visit.editPass(for: product.id).map { OwnershipProof(secret: $0.secret, client: visit.client) }
    }

    /// The sign-in of `product`'s seller, when that is who this visitor is.
    private func sellersProof(for product: Product, visit: Visit) -> OwnershipProof? {
        guard visit.owns(product), let session = visit.session else { return nil }
        return OwnershipProof(signedInWith: session.token, client: visit.client)
    }

    /// A form posted about one product: who sent it, the product as it is, and the form.
    private func ownerForm(_ request: Request, _ context: StorefrontContext) async throws -> (
        Visit, Product, FormSubmission
    ) {
        var request = request
        let visit = context.visit
        let product = try await service.product(id: try context.productID())
        return (visit, product, try await submission(&request, visit: visit))
    }

    private func unlockForm(_ product: Product, visit: Visit, error: String? = nil) -> Response {
        let heading = visit.words("editProduct", ["name": product.name])
        return pages.page(
            "unlock", title: heading, visit: visit, status: error == nil ? .ok : .forbidden,
            content: [
                "product": .object(ProductSheet(product, words: visit.words)), "heading": .text(heading),
                "error": error.map(TemplateValue.text) ?? false,
            ])
    }

    private static func wrongSecret(_ secret: String, words: Words) -> String {
        secret.isEmpty ? words("enterSecret") : words("wrongSecret")
    }

    // MARK: Deleting

    @Sendable func confirmDelete(_ request: Request, context: StorefrontContext) async throws -> Response {
        let product = try await service.product(id: try context.productID())
        return deleteForm(product, visit: context.visit)
    }

    @Sendable func deleteProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        let (sender, product, form) = try await ownerForm(request, context)
        var visit = sender
        let proof =
            sellersProof(for: product, visit: visit) ?? OwnershipProof(secret: form["secret"], client: visit.client)
        do {
            _ = try await service.deleteProduct(id: product.id, proof: proof)
        } catch let error as MarketError where error == .sessionEnded {
            return signInAgain(&visit, next: "/products/\(product.id)")
        } catch let error as MarketError where error.isWrongSecret {
            return deleteForm(product, visit: visit, error: Self.wrongSecret(form["secret"], words: visit.words))
        }
        visit.leave(notice: visit.words("deleted", ["name": product.name]))
        return redirect(to: "/", visit: visit)
    }

    private func deleteForm(_ product: Product, visit: Visit, error: String? = nil) -> Response {
        let sheet = ProductSheet(product, words: visit.words, isOwner: visit.owns(product))
        return pages.page(
            "delete", title: sheet.deleteQuestion, visit: visit, status: error == nil ? .ok : .forbidden,
            content: [
                "product": .object(sheet), "secretError": error.map(TemplateValue.text) ?? false, "standalone": true,
            ])
    }
}

extension ProductEntry {
    /// The product as its form shows it, amounts with their thousands grouped.
    init(_ product: Product) {
        self.init(
            name: product.name, description: product.description, price: Words.grouped(product.price),
            discount: product.discount == 0 ? "" : Words.grouped(product.discount), stock: Words.grouped(product.stock),
            currency: product.currency)
    }
}

extension MarketError {
    /// The secret given does not prove ownership: missing, wrong, or another vendor's.
    var isWrongSecret: Bool {
        kind == .unauthorized || kind == .forbidden || (kind == .invalid && field == .secret)
    }
}
