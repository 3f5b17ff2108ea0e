import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketPages

/// The request inspector for a signed-in vendor: what their app sent lately and what the market
/// made of it, the failures they rehearse, and a fresh start.
package struct InspectorPages: Sendable {
    let website: Website
    let records: RequestRecords
    /// What the class board read of each team's requests, so that it reads only what is new.
    let boardMemory = BoardMemory()

    package init(website: Website, records: RequestRecords) { (self.website, self.records) = (website, records) }

    /// The folder of the inspector's templates and phrases, for the page renderer.
    package static var resources: URL? { Bundle.module.resourceURL?.appendingPathComponent("inspector") }

    package func addRoutes(to router: Router<MarketRequestContext>) {
        let pages = website.pages(on: router)
        pages.get("inspector", use: inspector)
        pages.get("inspector/live", use: liveInspector)
        pages.post("inspector/rehearsal", use: saveFaults)
        pages.post("inspector/products/delete", use: deleteAllProducts)
    }

    /// The class board the operator console shows, from the requests each team's inspector keeps.
    package var classBoard: some ClassBoardSource {
        ClassBoard(service: website.service, records: records, memory: boardMemory)
    }

    /// The operator console's newest requests that named no vendor, each as the inspector lists it.
    package func anonymousRequests(_ strings: Localization) -> [PageContent] {
        records.anonymousRequests(limit: 50).compactMap { InspectedRow($0)?.context(strings) }
    }

    @Sendable func inspector(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        guard let vendor = try await website.signedInVendor(browser) else {
            return website.signInAgain(&browser, next: "/inspector")
        }
        return try await inspectorPage(request, browser: browser, vendor: vendor)
    }

    /// The page, with `typedFaults` (what was typed, with the mistake beside its field) instead of
    /// the faults set, when a form was refused.
    private func inspectorPage(
        _ request: Request, browser: BrowserSession, vendor: Vendor, typedFaults: PageContent? = nil
    ) async throws -> Response {
        let stored = try await records.requests(of: vendor.id)
        let kept = stored.compactMap(InspectedRow.init)
        let choice = InspectorChoice(request.formQuery, routes: kept.map { InspectorChoice.route(of: $0.request) })
        let shown = kept.filter { choice.shows($0.request) }
        let page = choice.page(of: shown.count)
        let records = shown[page.range]
        let faults = try await website.faults.faults(of: vendor.id) ?? FaultSettings()
        let notKept = self.records.notKept(of: vendor.id)
        let everyTeam = vendor.isTeam ? try await website.faults.classFaults() : nil
        let strings = browser.strings
        return website.renderer.page(
            "inspector", title: strings("inspector_title"), browser: browser,
            status: typedFaults == nil ? .ok : .unprocessableContent,
            content: [
                "vendor": vendor.name, "identifier": vendor.identifier,
                "requests": records.map { $0.context(strings) }, "noRequests": records.isEmpty,
                "choice": choice.context(page: page, shown: shown.count, newest: stored.first?.id, strings: strings),
                "faults": typedFaults ?? FaultsForm(faults, strings: strings).context,
                "faultsOn": !faults.isOff,
                "notKept": notKept == 0 ? nil : strings("inspector_notKept", ["count": String(notKept)]),
                "classRehearsal": everyTeam.map {
                    strings("inspector_classRehearsal", ["faults": strings.describe($0)])
                },
                "explainAfter": strings("inspector_explainAfter", ["kept": String(RequestRecords.keptRequests)]),
                "pictureWords": Self.pictureWords(strings),
                "teamAddress": strings(
                    "inspector_teamAddress", ["address": TeamAddress.url(of: vendor.id, on: request.origin)]),
                "teamPort": website.teamAddresses.port(of: vendor, on: request.origin).map { port in
                    port.url.map { strings("inspector_teamPort", ["address": $0]) }
                        ?? strings("inspector_teamPortMissing", ["why": strings.whyNoPort(port) ?? ""])
                },
            ])
    }

    /// The inspector's newest requests as they come, each as the page lists it, for its script.
    @Sendable func liveInspector(_ request: Request, context: PageRequestContext) async throws -> Response {
        let browser = context.browser
        guard let vendor = try await website.signedInVendor(browser) else { throw HTTPError(.unauthorized) }
        let query = request.formQuery
        let choice = InspectorChoice(query, routes: query["route"].map { [$0] } ?? [])
        let (renderer, strings) = (website.renderer, browser.strings)
        return try LiveEvents.response(to: request, records, vendorID: vendor.id) { stored in
            guard let row = InspectedRow(stored), choice.shows(row.request) else { return nil }
            return renderer.render("inspected-request", in: strings.language, content: row.context(strings))
        }
    }

    /// A form the signed-in vendor posted from the inspector; nil when no vendor is signed in.
    private func vendorForm(_ request: Request, _ browser: BrowserSession) async throws -> (Vendor, FormSubmission)? {
        let form = try await website.submission(request, browser: browser)
        return try await website.signedInVendor(browser).map { ($0, form) }
    }

    @Sendable func saveFaults(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        guard let (vendor, form) = try await vendorForm(request, browser) else {
            return website.signInAgain(&browser, next: "/inspector")
        }
        if !form["clear"].isEmpty {
            try await website.faults.setFaults(nil, vendorID: vendor.id)
            browser.leave(notice: browser.strings("inspector_faultsOff"))
        } else {
            do {
                try await website.faults.setFaults(try FaultsForm.faults(from: form), vendorID: vendor.id)
                browser.leave(notice: browser.strings("inspector_faultsSaved"))
            } catch let error as MarketError where error.kind == .invalid {
                return try await inspectorPage(
                    request, browser: browser, vendor: vendor,
                    typedFaults: FaultsForm.typed(form, refused: error, strings: browser.strings))
            }
        }
        return website.redirect(to: "/inspector", browser: browser)
    }

    @Sendable func deleteAllProducts(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        guard let (vendor, form) = try await vendorForm(request, browser) else {
            return website.signInAgain(&browser, next: "/inspector")
        }
        do {
            let deleted = try await website.service.deleteAllProducts(
                of: VendorCredentials(identifier: vendor.identifier, secret: form["secret"]), from: browser.sender)
            browser.leave(notice: browser.strings("inspector_deletedAll", ["count": browser.strings.products(deleted)]))
        } catch let error as MarketError where error.kind == .unauthorized || error.kind == .invalid {
            browser.leave(notice: browser.strings("inspector_notYourSecret"))
        }
        return website.redirect(to: "/inspector", browser: browser)
    }
}

/// One recorded request, as the page lists it and the JSON twin gives it (`RecordBody`).
struct InspectedRow {
    let id: Int64
    let at: Date
    let request: InspectedRequest

    init?(_ stored: StoredRequestRecord) {
        guard let request = try? JSONDecoder().decode(InspectedRequest.self, from: stored.detail) else { return nil }
        (id, at, self.request) = (stored.id, stored.at, request)
    }

    /// The row, its explanations said in the page's language; the request's and the answer's own bytes as they were.
    func context(_ strings: Localization) -> PageContent {
        let replay = ReplayedRequest(request)
        let curlSteps = Self.curlSteps(request.curlNeeds, strings)
        return [
            "id": String(id), "moment": PageRenderer.moment(at), "method": request.method,
            "path": request.path, "status": request.status, "refused": request.refusal != nil,
            "rehearsed":
                request.refusal == nil
                && (request.broken != nil || request.fault != nil && !(200..<400).contains(request.status)),
            "milliseconds": String(format: "%.1f", request.milliseconds),
            "headers": request.headers.map { ["name": $0.name, "value": $0.value] },
            "bodyBytes": request.bodyBytes,
            "bodyLine": strings("inspector_body", ["bytes": Localization.grouped(Int64(request.bodyBytes))]),
            "quirks": request.quirks.map(strings.explain),
            "answer": request.answer, "answerBytes": answerBytes(strings), "curl": request.curl, "curlSteps": curlSteps,
            "hasCurlSteps": !curlSteps.isEmpty,
            "parts": request.parts.map { part in
                [
                    "name": part.name, "filename": part.filename ?? "", "declaredType": part.declaredType ?? "",
                    "sniffedType": strings.explain(part.sniffed), "size": part.size,
                ]
            },
            "replay": replay?.json, "needsSecret": replay?.needsSecret,
            "hasParts": !request.parts.isEmpty, "hasQuirks": !request.quirks.isEmpty,
            "hasMistakes": !request.mistakes.isEmpty, "mistakes": request.mistakes.map(strings.explain),
            "json": request.json, "fault": request.fault.map(strings.explain),
            "broken": request.broken.map(strings.explain), "forEveryTeam": request.forEveryTeam == true,
            "hardCases": request.hardCases.map {
                $0.map { strings("hardCase.\($0.rawValue)") }.joined(separator: ", ")
            },
            "repeatedItems": request.repeatedItems.map { strings("inspector_repeatedItems", ["count": String($0)]) },
            "recognised": request.recognised.map { strings("inspector_recognised_\($0.rawValue)") },
            "refusal": request.refusal.map { refusal -> PageContent in
                [
                    "rule": strings.explain(refusal), "field": refusal.field ?? "",
                    "correctShape": strings.explain(refusal.shape),
                ]
            },
        ]
    }
}

extension InspectorPages {
    /// How the page's script says what a request sent again from the page answered when it was a picture, as the
    /// recorded answer says it: its phrases, and the names of the kinds of picture by their media type's subtype.
    static func pictureWords(_ strings: Localization) -> String {
        struct Words: Encodable {
            var picture: String
            var bytes: String
            var types: [String: String]
        }
        var types: [String: String] = [:]
        for sniffed in [Sniffed.jpeg, .png, .gif, .webp, .heic] { types[sniffed.rawValue] = strings.explain(sniffed) }
        types["heif"] = types["heic"]
        let words = Words(picture: strings("answer.picture"), bytes: strings("answer.bytes"), types: types)
        return String(decoding: (try? JSONEncoder.stable().encode(words)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

extension InspectedRow {
    /// What an answer that was no text is, and where a picture the market answered is shown from: the
    /// address the app asked, which a page's own request never counts as the app's.
    func answerBytes(_ strings: Localization) -> PageContent? {
        guard let bytes = request.answerBytes else { return nil }
        let picture = bytes.width != nil && InspectorChoice.route(of: request) == "GET /images/{name}"
        return ["said": strings.explain(bytes), "src": picture ? request.path : nil]
    }

    /// What to do before running the resend command, one step a line; none when it runs as it is.
    static func curlSteps(_ needs: CurlNeeds?, _ strings: Localization) -> [String] {
        var steps: [String] = []
        if let secret = needs?.secret { steps.append(strings("inspector_curlSecret.\(secret.rawValue)")) }
        if let files = needs?.files, !files.isEmpty {
            steps.append(strings("inspector_curlFiles", ["files": files.joined(separator: ", ")]))
        }
        return steps
    }
}
