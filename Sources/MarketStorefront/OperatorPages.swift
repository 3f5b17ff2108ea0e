import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketPages

/// The operator's console: every vendor with their products and last request, registering and re-keying vendors,
/// taking any product off, emptying the market to the demo catalogue, and the service's log of who did what.
extension Storefront {
    @Sendable func console(_ request: Request, context: PageRequestContext) async throws -> Response {
        try await consolePage(context.browser, origin: request.origin)
    }

    /// The class board: every team's progress, or with `?view=projector` the class's tallies alone.
    @Sendable func board(_ request: Request, context: PageRequestContext) async throws -> Response {
        let browser = context.browser
        guard let actor = browser.signedInOperator() else {
            return try await consolePage(browser, origin: request.origin)
        }
        var content = try await classBoard.content(browser.strings)
        content["projector"] = request.formQuery["view"] == "projector"
        content["operator"] = actor.name
        return renderer.page("class-board", title: browser.strings("board_title"), browser: browser, content: content)
    }

    @Sendable func boardJSON(_ request: Request, context: PageRequestContext) async throws -> Response {
        guard context.browser.signedInOperator() != nil else { throw HTTPError(.unauthorized) }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try await classBoard.json())))
    }

    @Sendable func boardCSV(_ request: Request, context: PageRequestContext) async throws -> Response {
        let browser = context.browser
        guard browser.signedInOperator() != nil else { throw HTTPError(.unauthorized) }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"class-board.csv\"",
            ],
            // A byte-order mark, so that a spreadsheet reads the Korean as UTF-8.
            body: .init(byteBuffer: ByteBuffer(string: "\u{FEFF}" + (try await classBoard.csv(browser.strings)))))
    }

    @Sendable func operatorSignIn(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        let form = try await website.submission(request, browser: browser)
        do {
            let actor = try await service.authenticateOperator(
                name: form["name"], secret: form["secret"], from: browser.sender)
            browser.signIn(operator: actor)
            browser.leave(notice: browser.strings("operator_signedIn", ["name": actor.name]))
            return website.redirect(to: "/operator", browser: browser)
        } catch let error as MarketError where error.kind == .unauthorized || error.kind == .throttled {
            let (status, message) = signInRefusal(error, wrong: "operator_wrongSecret", browser.strings)
            return renderer.page(
                "operator", title: browser.strings("operator_title"), browser: browser, status: status,
                content: ["signInError": message, "name": form["name"]]
            ).retrying(after: error.retryAfter)
        }
    }

    @Sendable func operatorSignOut(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        _ = try await website.submission(request, browser: browser)
        browser.signOutOperator()
        browser.leave(notice: browser.strings("operator_signedOut"))
        return website.redirect(to: "/operator", browser: browser)
    }

    @Sendable func registerVendor(_ request: Request, context: PageRequestContext) async throws -> Response {
        try await operatorAct(request, context, action: "/operator/vendors") { actor, form, strings in
            let vendorID = form["vendor_id"].trimmingCharacters(in: .whitespaces)
            guard vendorID.isEmpty || Int64(vendorID) != nil else {
                throw ConsoleRefusal(phrase: "operator_vendorIDNotNumber")
            }
            let registered = try await service.registerVendor(name: form["name"], vendorID: Int64(vendorID), by: actor)
            return ConsoleResult(
                heading: strings("operator_registered", ["name": registered.vendor.name]),
                identifier: registered.vendor.identifier, vendorID: registered.vendor.id, secret: registered.secret)
        }
    }

    @Sendable func rekeyVendor(_ request: Request, context: PageRequestContext) async throws -> Response {
        try await operatorAct(
            request, context, action: "/operator/vendors/secret",
            confirming: { actor, form, strings in
                let identifier = form["identifier"].trimmingCharacters(in: .whitespaces).lowercased()
                let rows = try await service.vendorOverview(for: actor)
                guard let row = rows.first(where: { $0.vendor.identifier == identifier }) else {
                    throw ConsoleRefusal(phrase: "operator_noSuchVendor", values: ["identifier": identifier])
                }
                let (vendor, count) = (row.vendor.name, row.allProductCount)
                let detail =
                    switch count {
                    case 0: "operator_confirmRekeyDetailNone"
                    case 1: "operator_confirmRekeyDetailOne"
                    default: "operator_confirmRekeyDetail"
                    }
                return Confirmation(
                    heading: strings("operator_confirmRekey", ["vendor": vendor]),
                    detail: strings(detail, ["vendor": vendor, "count": strings.products(count)]),
                    button: strings("operator_newSecret"), fields: [("identifier", identifier)])
            }
        ) { actor, form, strings in
            let identifier = form["identifier"].trimmingCharacters(in: .whitespaces).lowercased()
            let secret = try await service.replaceSecret(ofVendor: identifier, by: actor)
            return ConsoleResult(heading: strings("operator_rekeyed"), identifier: identifier, secret: secret)
        }
    }

    @Sendable func removeProduct(_ request: Request, context: PageRequestContext) async throws -> Response {
        try await productAct(
            request, context, action: "/operator/products/remove", done: "operator_removed",
            confirming: (phrase: "operator_confirmRemove", button: "operator_remove")
        ) { try await service.removeProduct(id: $0, by: $1).name }
    }

    @Sendable func hideProduct(_ request: Request, context: PageRequestContext) async throws -> Response {
        try await productAct(
            request, context, action: "/operator/products/hide", done: "operator_hidden",
            confirming: (phrase: "operator_confirmHide", button: "operator_hide")
        ) { try await service.setProductHidden(true, id: $0, by: $1) }
    }

    @Sendable func showProduct(_ request: Request, context: PageRequestContext) async throws -> Response {
        try await productAct(request, context, action: "/operator/products/show", done: "operator_shown") {
            try await service.setProductHidden(false, id: $0, by: $1)
        }
    }

    /// An act on the product the form names, said done by the phrase `done`. With `confirming`, it is
    /// asked about first (`phrase` and its `Detail`), named by the product and its seller.
    private func productAct(
        _ request: Request, _ context: PageRequestContext, action: String, done: String,
        confirming: (phrase: String, button: String)? = nil,
        _ act: (Int64, MarketOperator) async throws -> String
    ) async throws -> Response {
        try await operatorAct(
            request, context, action: action,
            confirming: confirming.map { phrase, button in
                { actor, form, strings in
                    let id = try Self.productID(form)
                    let product = try await service.product(id: id, for: .operator(actor))
                    let values = ["id": String(id), "name": product.name, "vendor": product.vendor.name]
                    return Confirmation(
                        heading: strings(phrase, values), detail: strings(phrase + "Detail", values),
                        button: strings(button), fields: [("product_id", String(id))])
                }
            }
        ) { actor, form, strings in
            let id = try Self.productID(form)
            let name = try await act(id, actor)
            return ConsoleResult(heading: strings(done, ["id": String(id), "name": name]))
        }
    }

    private static func productID(_ form: FormSubmission) throws -> Int64 {
        guard let id = Int64(form["product_id"].trimmingCharacters(in: .whitespaces)) else {
            throw ConsoleRefusal(phrase: "operator_idNotNumber")
        }
        return id
    }

    @Sendable func resetMarket(_ request: Request, context: PageRequestContext) async throws -> Response {
        try await operatorAct(
            request, context, action: "/operator/reset",
            confirming: { actor, _, strings in
                let vendors = try await service.vendorOverview(for: actor)
                let count = vendors.reduce(0) { $0 + $1.allProductCount }
                return Confirmation(
                    heading: strings("operator_confirmReset"),
                    detail: strings(
                        "operator_confirmResetDetail",
                        ["count": strings.products(count), "vendors": String(vendors.count)]),
                    button: strings("operator_reset"), fields: [], typedWord: strings("operator_resetWord"))
            }
        ) { actor, _, strings in
            let (removed, added) = try await service.resetMarket(by: actor, fillWithDemo: fillWithDemo)
            return ConsoleResult(
                heading: strings("operator_resetDone", ["removed": String(removed), "added": String(added)]))
        }
    }

    /// Sets the faults every team meets, or with `clear` switches them off.
    @Sendable func rehearseForEveryTeam(_ request: Request, context: PageRequestContext) async throws -> Response {
        try await operatorAct(request, context, action: "/operator/rehearsal") { actor, form, strings in
            let settings = form["clear"].isEmpty ? try FaultsForm.faults(from: form) : nil
            try await service.rehearseForEveryTeam(settings, with: website.faults, by: actor)
            let set = try await website.faults.classFaults()
            return ConsoleResult(
                heading: set.map { strings("operator_rehearsing", ["faults": strings.describe($0)]) }
                    ?? strings("operator_rehearsalOff"))
        }
    }

    /// The console, with what the last act came to (`failure`, or the result it left) above all else.
    /// Team addresses are on `origin` as a phone on the same network reaches it.
    func consolePage(
        _ browser: BrowserSession, origin: String, failure: PageContent? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var browser = browser
        guard let actor = browser.signedInOperator() else {
            return renderer.page("operator", title: browser.strings("operator_title"), browser: browser)
        }
        let result = failure ?? browser.consoleResult?.content
        browser.clearConsoleResult()
        let strings = browser.strings
        let reachable = website.teamAddresses.forPhones(origin)
        let vendors: [PageContent] = try await service.vendorOverview(for: actor).map { row in
            let hasAddress = MarketService.hasTeamAddress(row.vendor)
            let address = hasAddress ? TeamAddress.url(of: row.vendor.id, on: reachable) : nil
            let port = hasAddress ? website.teamAddresses.port(of: row.vendor, on: reachable) : nil
            return [
                "id": row.vendor.id, "name": row.vendor.name, "address": address, "portAddress": port?.url,
                "portMissing": port.flatMap(strings.whyNoPort).map { strings("operator_noPort", ["why": $0]) },
                "qr": address.flatMap {
                    QRCode($0)?.svg(label: strings("operator_teamAddressQR", ["name": row.vendor.name]))
                },
                "identifier": row.vendor.identifier,
                "products": row.hiddenCount == 0
                    ? String(row.productCount)
                    : strings(
                        "operator_productsWithHidden",
                        ["count": String(row.productCount), "hidden": String(row.hiddenCount)]),
                "lastRequest": row.lastRequestAt.map(PageRenderer.moment), "never": strings("operator_never"),
            ]
        }
        let log: [PageContent] = try await service.operatorLog(for: actor).map {
            ["what": strings.logEntry(by: $0.operatorName, $0.act), "when": PageRenderer.moment($0.at)]
        }
        let host = URL(string: reachable)?.host ?? "localhost"
        let loopbackOnly = host == "localhost" || host.hasPrefix("127.") || host == "::1"
        let hidden: [PageContent] = try await service.hiddenProducts(for: actor).map { product in
            let values = ["id": String(product.id), "name": product.name, "vendor": product.vendorName]
            return ["id": product.id, "label": strings("operator_hiddenItem", values)]
        }
        let anonymous = anonymousRequests(strings)
        let throttle = service.secretThrottle
        let rehearsal = try await website.faults.classFaults()
        let content: PageContent = [
            "operator": actor.name, "signedInAs": strings("operator_signedInAs", ["name": actor.name]),
            "vendors": vendors, "loopbackOnly": loopbackOnly, "log": log, "noLog": log.isEmpty,
            "hidden": hidden, "anyHidden": !hidden.isEmpty, "anonymous": anonymous, "noAnonymous": anonymous.isEmpty,
            "throttle": strings(
                "operator_throttle",
                ["count": String(throttle.perAddress), "seconds": String(throttle.firstWait.components.seconds)]),
            "result": result,
            "classFaults": FaultsForm(rehearsal ?? FaultSettings(), strings: strings).context,
            "classRehearsal": rehearsal.map { strings("operator_rehearsalNow", ["faults": strings.describe($0)]) },
        ]
        return renderer.page(
            "operator", title: strings("operator_title"), browser: browser, status: status, content: content)
    }
}
