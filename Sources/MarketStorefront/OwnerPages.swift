import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// Editing and deleting: only with the product's secret, checked by the service each time.
extension Storefront {
    @Sendable func editProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        let visit = context.visit
        let product = try await service.product(id: try context.productID())
        guard visit.editPass(for: product.id) != nil else { return unlockForm(product, visit: visit) }
        return productForm(
            ProductFormPage(action: Visit.editPath(product.id), entry: ProductEntry(product), editing: product),
            visit: visit)
    }

    @Sendable func unlockEditing(_ request: Request, context: StorefrontContext) async throws -> Response {
        let (sender, product, form) = try await ownerForm(request, context)
        var visit = sender
        do {
            try await service.checkOwnership(of: product.id, proof: OwnershipProof(secret: form["secret"]))
        } catch let error as MarketError where error.isWrongSecret {
            return unlockForm(product, visit: visit, error: Self.wrongSecret(form["secret"]))
        }
        visit.grant(
            EditPass(
                productID: product.id, secret: form["secret"], expires: Date().addingTimeInterval(EditPass.lifetime)))
        return redirect(to: Visit.editPath(product.id), visit: visit)
    }

    @Sendable func saveProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        let (sender, product, form) = try await ownerForm(request, context)
        var visit = sender
        guard let pass = visit.editPass(for: product.id) else {
            return unlockForm(
                product, visit: visit,
                error: "Your time to edit ran out. Enter the secret again; your changes were not saved.")
        }
        let original = ProductEntry(product)
        let entry = ProductEntry(form: form)
        let images = form.images.isEmpty ? nil : form.images
        do {
            let draft = try entry.draft(imageCount: images?.count)
            _ = try await service.updateProduct(
                id: product.id, entry.changes(from: original, draft: draft), images: images,
                proof: OwnershipProof(secret: pass.secret))
        } catch let error as MarketError where error.isWrongSecret {
            visit.revokeEditPass(for: product.id)
            return unlockForm(
                product, visit: visit, error: "The secret has changed. Enter it again; your changes were not saved.")
        } catch {
            return try refusedForm(
                error, action: Visit.editPath(product.id), entry: entry, editing: product, visit: visit)
        }
        visit.revokeEditPass(for: product.id)
        visit.leave(notice: "Your changes are saved.")
        return redirect(to: "/products/\(product.id)", visit: visit)
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
        pages.page(
            "unlock", title: "Edit \(product.name)", visit: visit, status: error == nil ? .ok : .forbidden,
            content: ["product": ProductSheet(product), "error": error ?? false])
    }

    private static func wrongSecret(_ secret: String) -> String {
        secret.isEmpty
            ? "Enter the product’s secret." : "That secret is not right for this product. Try again, or cancel."
    }

    // MARK: Deleting

    @Sendable func confirmDelete(_ request: Request, context: StorefrontContext) async throws -> Response {
        let product = try await service.product(id: try context.productID())
        return deleteForm(product, visit: context.visit)
    }

    @Sendable func deleteProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        let (sender, product, form) = try await ownerForm(request, context)
        var visit = sender
        do {
            _ = try await service.deleteProduct(id: product.id, proof: OwnershipProof(secret: form["secret"]))
        } catch let error as MarketError where error.isWrongSecret {
            return deleteForm(product, visit: visit, error: Self.wrongSecret(form["secret"]))
        }
        visit.leave(notice: "“\(product.name)” is deleted.")
        return redirect(to: "/", visit: visit)
    }

    private func deleteForm(_ product: Product, visit: Visit, error: String? = nil) -> Response {
        pages.page(
            "delete", title: "Delete \(product.name)", visit: visit, status: error == nil ? .ok : .forbidden,
            content: ["product": ProductSheet(product), "secretError": error ?? false, "standalone": true])
    }
}

extension ProductEntry {
    init(_ product: Product) {
        self.init(
            ProductDraft(
                name: product.name, description: product.description, currency: product.currency,
                price: product.price, discount: product.discount, stock: product.stock))
    }
}

extension MarketError {
    /// The secret given does not prove ownership: missing, wrong, or another vendor's.
    var isWrongSecret: Bool {
        kind == .unauthorized || kind == .forbidden || (kind == .invalid && field == .secret)
    }
}
