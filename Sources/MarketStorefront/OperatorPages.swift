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
            let actor = try await service.authenticateOperator(
                name: form["name"], secret: form["secret"], from: visit.client)
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
        try await operatorAct(request, context, action: "/operator/vendors") { actor, form, words in
            let vendorID = form["vendor_id"].trimmingCharacters(in: .whitespaces)
            guard vendorID.isEmpty || Int64(vendorID) != nil else {
                throw MarketError(.invalid, words("operator_vendorIDNotNumber"))
            }
            let registered = try await service.registerVendor(name: form["name"], vendorID: Int64(vendorID), by: actor)
            return ConsoleResult(
                heading: words("operator_registered", ["name": registered.vendor.name]),
                identifier: registered.vendor.identifier, vendorID: registered.vendor.id, secret: registered.secret)
        }
    }

    @Sendable func rekeyVendor(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAct(
            request, context, action: "/operator/vendors/secret",
            confirming: { actor, form, words in
                let identifier = form["identifier"].trimmingCharacters(in: .whitespaces).lowercased()
                guard
                    let row = try await service.vendorOverview(for: actor).first(where: {
                        $0.vendor.identifier == identifier
                    })
                else { throw MarketError(.notFound, words("operator_noSuchVendor", ["identifier": identifier])) }
                let vendor = row.vendor.name
                return Confirmation(
                    heading: words("operator_confirmRekey", ["vendor": vendor]),
                    detail: words(
                        "operator_confirmRekeyDetail", ["vendor": vendor, "count": words.products(row.productCount)]),
                    button: words("operator_newSecret"), fields: [("identifier", identifier)])
            }
        ) { actor, form, words in
            let identifier = form["identifier"].trimmingCharacters(in: .whitespaces).lowercased()
            let secret = try await service.replaceSecret(ofVendor: identifier, by: actor)
            return ConsoleResult(heading: words("operator_rekeyed"), identifier: identifier, secret: secret)
        }
    }

    @Sendable func removeProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAct(
            request, context, action: "/operator/products/remove",
            confirming: { actor, form, words in
                try await productConfirmation("operator_confirmRemove", button: "operator_remove", actor, form, words)
            }
        ) { actor, form, words in
            let id = try Self.productID(form, words)
            let removed = try await service.removeProduct(id: id, by: actor)
            return ConsoleResult(heading: words("operator_removed", ["id": String(id), "name": removed.name]))
        }
    }

    @Sendable func hideProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAct(
            request, context, action: "/operator/products/hide",
            confirming: { actor, form, words in
                try await productConfirmation("operator_confirmHide", button: "operator_hide", actor, form, words)
            }
        ) { actor, form, words in
            let id = try Self.productID(form, words)
            let name = try await service.hideProduct(id: id, by: actor)
            return ConsoleResult(heading: words("operator_hidden", ["id": String(id), "name": name]))
        }
    }

    @Sendable func showProduct(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAct(request, context, action: "/operator/products/show") { actor, form, words in
            let id = try Self.productID(form, words)
            let name = try await service.showProduct(id: id, by: actor)
            return ConsoleResult(heading: words("operator_shown", ["id": String(id), "name": name]))
        }
    }

    /// What removing or hiding a product will do, named by the product and its seller.
    private func productConfirmation(
        _ phrase: String, button: String, _ actor: MarketOperator, _ form: FormSubmission, _ words: Words
    ) async throws -> Confirmation {
        let id = try Self.productID(form, words)
        let product = try await service.productLabel(id: id, for: actor)
        let values = ["id": String(id), "name": product.name, "vendor": product.vendorName]
        return Confirmation(
            heading: words(phrase, values), detail: words(phrase + "Detail", values), button: words(button),
            fields: [("product_id", String(id))])
    }

    private static func productID(_ form: FormSubmission, _ words: Words) throws -> Int64 {
        guard let id = Int64(form["product_id"].trimmingCharacters(in: .whitespaces)) else {
            throw MarketError(.invalid, words("operator_idNotNumber"))
        }
        return id
    }

    @Sendable func resetMarket(_ request: Request, context: StorefrontContext) async throws -> Response {
        try await operatorAct(
            request, context, action: "/operator/reset",
            confirming: { actor, _, words in
                let vendors = try await service.vendorOverview(for: actor)
                let count = vendors.reduce(0) { $0 + $1.productCount }
                return Confirmation(
                    heading: words("operator_confirmReset"),
                    detail: words(
                        "operator_confirmResetDetail",
                        ["count": words.products(count), "vendors": String(vendors.count)]),
                    button: words("operator_reset"), fields: [], typedWord: words("operator_resetWord"))
            }
        ) { actor, _, words in
            let (removed, added) = try await service.resetMarket(by: actor, restock: restock)
            return ConsoleResult(
                heading: words("operator_resetDone", ["removed": String(removed), "added": String(added)]))
        }
    }

    /// The console, with what the last act came to (`failure`, or the result it left) above all else.
    func consolePage(
        _ visit: Visit, failure: [String: TemplateValue]? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var visit = visit
        guard let actor = visit.signedInOperator() else {
            return pages.page("operator", title: visit.words("operator_title"), visit: visit)
        }
        let result = failure ?? visit.consoleResult?.content
        visit.clearConsoleResult()
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
                "what": .text(words.logEntry(by: entry.operatorName, entry.action)),
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
        let anonymous = rehearsals.anonymousRequests(limit: 50).compactMap { InspectedRow($0)?.context(words) }
        var content: [String: TemplateValue] = [
            "operator": .text(actor.name), "signedInAs": .text(words("operator_signedInAs", ["name": actor.name])),
            "vendors": .objects(vendors), "log": .objects(log), "noLog": .flag(log.isEmpty),
            "hidden": .objects(hidden), "anyHidden": .flag(!hidden.isEmpty), "anonymous": .objects(anonymous),
            "noAnonymous": .flag(anonymous.isEmpty),
            "throttle": .text(
                words(
                    "operator_throttle",
                    [
                        "count": String(service.secretThrottle.perAddress),
                        "seconds": String(service.secretThrottle.firstWait.components.seconds),
                    ])),
        ]
        content["result"] = result.map { .object($0) }
        return pages.page("operator", title: words("operator_title"), visit: visit, status: status, content: content)
    }
}
