import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketInspector
import MarketModel

/// The operator's console: every vendor with their products and last request, registering and
/// re-keying vendors, taking any product off the market, emptying it back to the demo catalogue,
/// and the log of who did what. Every act is the service's, and recorded there.
extension Storefront {
    @Sendable func console(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await consolePage(context.visit)
    }

    @Sendable func operatorSignIn(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        let form = try await submission(&request, visit: visit)
        do {
            let actor = try await service.authenticateOperator(name: form["name"], secret: form["secret"])
            visit.signIn(operator: actor)
            visit.leave(notice: "Signed in to the console as \(actor.name).")
            return redirect(to: "/operator", visit: visit)
        } catch let error as MarketError where error.kind == .unauthorized || error.kind == .throttled {
            let message =
                error.kind == .throttled
                ? "Too many wrong secrets. Wait \(error.retryAfter ?? 1) seconds, then try again."
                : "That name and secret do not match an operator."
            return pages.page(
                "operator", title: "Operator console", visit: visit,
                status: error.kind == .throttled ? .tooManyRequests : .unauthorized,
                content: ["signInError": message, "name": form["name"]]
            ).retrying(after: error.retryAfter)
        }
    }

    @Sendable func operatorSignOut(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        _ = try await submission(&request, visit: visit)
        visit.signOutOperator()
        visit.leave(notice: "You are signed out of the console.")
        return redirect(to: "/operator", visit: visit)
    }

    @Sendable func registerVendor(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form in
            let vendorID = form["vendor_id"].trimmingCharacters(in: .whitespaces)
            guard vendorID.isEmpty || Int64(vendorID) != nil else {
                throw MarketError(.invalid, "vendor_id must be a whole number")
            }
            let registered = try await service.registerVendor(name: form["name"], vendorID: Int64(vendorID), by: actor)
            return [
                "heading": "Vendor \(registered.vendor.name) registered", "identifier": registered.vendor.identifier,
                "vendorID": registered.vendor.id, "secret": registered.secret,
            ]
        }
    }

    @Sendable func rekeyVendor(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form in
            let secret = try await service.replaceSecret(ofVendor: form["identifier"], by: actor)
            return ["heading": "A new secret", "identifier": form["identifier"].lowercased(), "secret": secret]
        }
    }

    @Sendable func removeProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form in
            let id = try Self.productID(form)
            let removed = try await service.removeProduct(id: id, by: actor)
            return ["heading": "Product \(id) “\(removed.name)” is off the market"]
        }
    }

    @Sendable func hideProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form in
            let id = try Self.productID(form)
            return ["heading": "Product \(id) “\(try await service.hideProduct(id: id, by: actor))” is hidden"]
        }
    }

    @Sendable func showProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form in
            let id = try Self.productID(form)
            return ["heading": "Product \(id) “\(try await service.showProduct(id: id, by: actor))” is shown again"]
        }
    }

    private static func productID(_ form: FormSubmission) throws -> Int64 {
        guard let id = Int64(form["product_id"].trimmingCharacters(in: .whitespaces)) else {
            throw MarketError(.invalid, "the product's id must be a whole number")
        }
        return id
    }

    @Sendable func resetMarket(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, _ in
            let (removed, added) = try await service.resetMarket(by: actor, restock: restock)
            return ["heading": "The market is back to the demo catalogue: \(removed) products removed, \(added) added"]
        }
    }

    /// Runs an operator's form; the console shows what came of it (a secret only this once), or why not.
    private func operatorAction(
        _ request: Request, _ context: StorefrontContext,
        _ act: (MarketOperator, FormSubmission) async throws -> [String: Any]
    ) async throws -> Response {
        var request = request
        let visit = context.visit
        let form = try await submission(&request, visit: visit)
        guard let actor = visit.signedInOperator() else { return try await consolePage(visit) }
        do {
            return try await consolePage(visit, result: try await act(actor, form))
        } catch let error as MarketError where error.kind != .unavailable {
            return try await consolePage(
                visit, result: ["heading": "Not done", "error": error.message(naming: \.description)],
                status: .unprocessableContent)
        }
    }

    private func consolePage(
        _ visit: Visit, result: [String: Any]? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let actor = visit.signedInOperator() else {
            return pages.page("operator", title: "Operator console", visit: visit)
        }
        let vendors = try await service.vendorOverview(for: actor).map { row in
            [
                "id": row.vendor.id, "name": row.vendor.name, "identifier": row.vendor.identifier,
                "products": row.productCount,
                "lastRequest": row.lastRequestAt.map { InspectedRow.time.string(from: $0) } ?? "never",
            ] as [String: Any]
        }
        let log = try await service.operatorLog(for: actor).map { entry in
            ["who": entry.operatorName, "what": entry.action, "when": InspectedRow.time.string(from: entry.at)]
        }
        let hidden = try await service.hiddenProducts(for: actor).map { product in
            ["id": product.id, "name": product.name, "vendor": product.vendorName] as [String: Any]
        }
        let anonymous = rehearsals.anonymousRequests(limit: 50).compactMap { stored in
            (try? JSONDecoder().decode(InspectedRequest.self, from: stored.detail)).map {
                InspectedRow(stored.at, $0).context
            }
        }
        var content: [String: Any] = [
            "operator": actor.name, "vendors": vendors, "log": log, "noLog": log.isEmpty, "hidden": hidden,
            "anyHidden": !hidden.isEmpty, "anonymous": anonymous, "noAnonymous": anonymous.isEmpty,
        ]
        if let result { content["result"] = result }
        return pages.page("operator", title: "Operator console", visit: visit, status: status, content: content)
    }
}
