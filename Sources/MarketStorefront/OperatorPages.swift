import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
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
            visit.leave(notice: visit.words("operator_signedIn", ["name": actor.name]))
            return redirect(to: "/operator", visit: visit)
        } catch let error as MarketError where error.kind == .unauthorized || error.kind == .throttled {
            let message =
                error.kind == .throttled
                ? visit.words("throttled", ["seconds": String(error.retryAfter ?? 1)])
                : visit.words("operator_wrongSecret")
            return pages.page(
                "operator", title: visit.words("operator_title"), visit: visit,
                status: error.kind == .throttled ? .tooManyRequests : .unauthorized,
                content: ["signInError": .text(message), "name": .text(form["name"])]
            ).retrying(after: error.retryAfter)
        }
    }

    @Sendable func operatorSignOut(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        _ = try await submission(&request, visit: visit)
        visit.signOutOperator()
        visit.leave(notice: visit.words("operator_signedOut"))
        return redirect(to: "/operator", visit: visit)
    }

    @Sendable func registerVendor(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form, words in
            let vendorID = form["vendor_id"].trimmingCharacters(in: .whitespaces)
            guard vendorID.isEmpty || Int64(vendorID) != nil else {
                throw MarketError(.invalid, words("operator_vendorIDNotNumber"))
            }
            let registered = try await service.registerVendor(name: form["name"], vendorID: Int64(vendorID), by: actor)
            return [
                "heading": .text(words("operator_registered", ["name": registered.vendor.name])),
                "identifier": .text(registered.vendor.identifier),
                "vendorID": .number(registered.vendor.id), "secret": .text(registered.secret),
            ]
        }
    }

    @Sendable func rekeyVendor(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form, words in
            let secret = try await service.replaceSecret(ofVendor: form["identifier"], by: actor)
            return [
                "heading": .text(words("operator_rekeyed")), "identifier": .text(form["identifier"].lowercased()),
                "secret": .text(secret),
            ]
        }
    }

    @Sendable func removeProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form, words in
            let id = try Self.productID(form, words)
            let removed = try await service.removeProduct(id: id, by: actor)
            return ["heading": .text(words("operator_removed", ["id": String(id), "name": removed.name]))]
        }
    }

    @Sendable func hideProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form, words in
            let id = try Self.productID(form, words)
            let name = try await service.hideProduct(id: id, by: actor)
            return ["heading": .text(words("operator_hidden", ["id": String(id), "name": name]))]
        }
    }

    @Sendable func showProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, form, words in
            let id = try Self.productID(form, words)
            let name = try await service.showProduct(id: id, by: actor)
            return ["heading": .text(words("operator_shown", ["id": String(id), "name": name]))]
        }
    }

    private static func productID(_ form: FormSubmission, _ words: Words) throws -> Int64 {
        guard let id = Int64(form["product_id"].trimmingCharacters(in: .whitespaces)) else {
            throw MarketError(.invalid, words("operator_idNotNumber"))
        }
        return id
    }

    @Sendable func resetMarket(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAction(request, context) { actor, _, words in
            let (removed, added) = try await service.resetMarket(by: actor, restock: restock)
            return [
                "heading": .text(words("operator_resetDone", ["removed": String(removed), "added": String(added)]))
            ]
        }
    }

    /// Runs an operator's form; the console shows what came of it (a secret only this once), or why not.
    private func operatorAction(
        _ request: Request, _ context: StorefrontContext,
        _ act: (MarketOperator, FormSubmission, Words) async throws -> [String: TemplateValue]
    ) async throws -> Response {
        var request = request
        let visit = context.visit
        let form = try await submission(&request, visit: visit)
        guard let actor = visit.signedInOperator() else { return try await consolePage(visit) }
        do {
            return try await consolePage(visit, result: try await act(actor, form, visit.words))
        } catch let error as MarketError where error.kind != .unavailable {
            return try await consolePage(
                visit,
                result: [
                    "heading": .text(visit.words("operator_notDone")), "error": .text(visit.words.refusal(error)),
                ],
                status: .unprocessableContent)
        }
    }

    private func consolePage(
        _ visit: Visit, result: [String: TemplateValue]? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let actor = visit.signedInOperator() else {
            return pages.page("operator", title: visit.words("operator_title"), visit: visit)
        }
        let words = visit.words
        let vendors: [[String: TemplateValue]] = try await service.vendorOverview(for: actor).map { row in
            [
                "id": .number(row.vendor.id), "name": .text(row.vendor.name),
                "identifier": .text(row.vendor.identifier),
                "products": .number(row.productCount),
                "lastRequest": .text(
                    row.lastRequestAt.map { InspectedRow.time.string(from: $0) } ?? words("operator_never")),
            ]
        }
        let log: [[String: TemplateValue]] = try await service.operatorLog(for: actor).map { entry in
            [
                "who": .text(entry.operatorName), "what": .text(entry.action),
                "when": .text(InspectedRow.time.string(from: entry.at)),
            ]
        }
        let hidden: [[String: TemplateValue]] = try await service.hiddenProducts(for: actor).map { product in
            [
                "id": .number(product.id),
                "label": .text(
                    words(
                        "operator_hiddenItem",
                        ["id": String(product.id), "name": product.name, "vendor": product.vendorName])),
            ]
        }
        let anonymous = rehearsals.anonymousRequests(limit: 50).compactMap { stored in
            (try? JSONDecoder().decode(InspectedRequest.self, from: stored.detail)).map {
                InspectedRow(stored.at, $0).context(words)
            }
        }
        var content: [String: TemplateValue] = [
            "operator": .text(actor.name), "signedInAs": .text(words("operator_signedInAs", ["name": actor.name])),
            "vendors": .objects(vendors), "log": .objects(log), "noLog": .flag(log.isEmpty),
            "hidden": .objects(hidden), "anyHidden": .flag(!hidden.isEmpty), "anonymous": .objects(anonymous),
            "noAnonymous": .flag(anonymous.isEmpty),
        ]
        content["result"] = result.map { .object($0) }
        return pages.page("operator", title: words("operator_title"), visit: visit, status: status, content: content)
    }
}
