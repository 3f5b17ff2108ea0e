import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// The request inspector for a signed-in vendor: what their app sent lately and what the market
/// made of it, the failures they rehearse, and a fresh start.
extension Storefront {
    @Sendable func inspector(_ request: Request, context: StorefrontContext) async throws -> Response {
        var visit = context.visit
        guard let vendor = try await signedInVendor(visit) else { return signInAgain(&visit, next: "/inspector") }
        return try await inspectorPage(request, visit: visit, vendor: vendor)
    }

    /// The page, with `typedFaults` (what was typed, with the mistake beside its field) instead of
    /// the faults set, when a form was refused.
    private func inspectorPage(
        _ request: Request, visit: Visit, vendor: Vendor, typedFaults: [String: TemplateValue]? = nil
    ) async throws -> Response {
        let stored = try await rehearsals.requests(of: vendor.id)
        let kept = stored.compactMap(InspectedRow.init)
        let choice = InspectorChoice(request.formQuery, routes: kept.map { InspectorChoice.route(of: $0.request) })
        let shown = kept.filter { choice.shows($0.request) }
        let page = choice.page(of: shown.count)
        let records = shown[page.range]
        let faults = try await rehearsals.faults(of: vendor.id) ?? RehearsedFaults()
        let words = visit.words
        return pages.page(
            "inspector", title: words("inspector_title"), visit: visit,
            status: typedFaults == nil ? .ok : .unprocessableContent,
            content: [
                "vendor": .text(vendor.name), "identifier": .text(vendor.identifier),
                "requests": .objects(records.map { $0.context(words) }), "noRequests": .flag(records.isEmpty),
                "choice": .object(
                    choice.context(page: page, shown: shown.count, newest: stored.first?.id, words: words)),
                "faults": .object(typedFaults ?? FaultsForm(faults, words: words).context),
                "faultsOn": .flag(!faults.isOff),
                "explainAfter": .text(words("inspector_explainAfter", ["kept": String(Rehearsals.keptRequests)])),
            ])
    }

    /// The inspector's newest requests as they come, each as the page lists it, for its script.
    @Sendable func liveInspector(_ request: Request, context: StorefrontContext) async throws -> Response {
        let visit = context.visit
        guard let vendor = try await signedInVendor(visit) else { throw HTTPError(.unauthorized) }
        let query = request.formQuery
        let choice = InspectorChoice(query, routes: query["route"].map { [$0] } ?? [])
        let (pages, words) = (pages, visit.words)
        return try LiveEvents.response(to: request, rehearsals, vendorID: vendor.id) { stored in
            guard let row = InspectedRow(stored), choice.shows(row.request) else { return nil }
            let content = row.context(words)
            return String(
                decoding: pages.fragment("inspected-request", in: words.language, content: content), as: UTF8.self)
        }
    }

    @Sendable func saveFaults(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        let form = try await submission(&request, visit: visit)
        guard let vendor = try await signedInVendor(visit) else { return signInAgain(&visit, next: "/inspector") }
        if !form["clear"].isEmpty {
            try await rehearsals.setFaults(nil, vendorID: vendor.id)
            visit.leave(notice: visit.words("inspector_faultsOff"))
        } else {
            do {
                try await rehearsals.setFaults(try FaultsForm.faults(from: form), vendorID: vendor.id)
                visit.leave(notice: visit.words("inspector_faultsSaved"))
            } catch let error as MarketError where error.kind == .invalid {
                return try await inspectorPage(
                    request, visit: visit, vendor: vendor,
                    typedFaults: FaultsForm.typed(form, refused: error, words: visit.words))
            }
        }
        return redirect(to: "/inspector", visit: visit)
    }

    @Sendable func deleteAllProducts(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        let form = try await submission(&request, visit: visit)
        guard let vendor = try await signedInVendor(visit) else { return signInAgain(&visit, next: "/inspector") }
        do {
            let deleted = try await service.deleteAllProducts(
                of: VendorCredentials(identifier: vendor.identifier, secret: form["secret"]), from: visit.client)
            visit.leave(notice: visit.words("inspector_deletedAll", ["count": visit.words.products(deleted)]))
        } catch let error as MarketError where error.kind == .unauthorized || error.kind == .invalid {
            visit.leave(notice: visit.words("inspector_notYourSecret"))
        }
        return redirect(to: "/inspector", visit: visit)
    }

    private func signedInVendor(_ visit: Visit) async throws -> Vendor? {
        guard let session = visit.session else { return nil }
        return try await service.signedInVendor(token: session.token)
    }
}

/// One recorded request as the page lists it.
struct InspectedRow {
    private let id: Int64
    private let at: Date
    let request: InspectedRequest

    init?(_ stored: StoredRequestRecord) {
        guard let request = try? JSONDecoder().decode(InspectedRequest.self, from: stored.detail) else { return nil }
        (id, at, self.request) = (stored.id, stored.at, request)
    }

    /// The row, its explanations said in the page's words; the request's and the answer's own
    /// bytes as they were.
    func context(_ words: Words) -> [String: TemplateValue] {
        var context: [String: TemplateValue] = [
            "time": .text(Self.time.string(from: at)), "method": .text(request.method), "path": .text(request.path),
            "status": .number(request.status), "refused": .flag(request.refusal != nil),
            "rehearsed": .flag(
                request.refusal == nil
                    && (request.broken != nil || request.fault != nil && !(200..<400).contains(request.status))),
            "milliseconds": .text(String(format: "%.1f", request.milliseconds)),
            "headers": .objects(request.headers.map { ["name": .text($0.name), "value": .text($0.value)] }),
            "bodyBytes": .number(request.bodyBytes),
            "bodyLine": .text(words("inspector_body", ["bytes": Words.grouped(Int64(request.bodyBytes))])),
            "quirks": .list(request.quirks.map { .text(words.quirk($0)) }),
            "answer": .text(request.answer), "curl": .text(request.curl),
            "parts": .objects(
                request.parts.map { part in
                    [
                        "name": .text(part.name), "filename": .text(part.filename ?? ""),
                        "declaredType": .text(part.declaredType ?? ""),
                        "sniffedType": .text(words.bytes(part.sniffedType)),
                        "size": .number(part.size),
                    ]
                }),
        ]
        let replay = ReplayedRequest(request)
        context["id"] = .text(String(id))
        context["replay"] = replay.map { .text($0.json) }
        context["needsSecret"] = .flag(replay?.needsSecret ?? false)
        context["hasParts"] = .flag(!request.parts.isEmpty)
        context["hasQuirks"] = .flag(!request.quirks.isEmpty)
        context["hasMistakes"] = .flag(!(request.mistakes ?? []).isEmpty)
        context["mistakes"] = .list((request.mistakes ?? []).map { .text(words.mistake($0)) })
        context["json"] = request.json.map(TemplateValue.text)
        context["fault"] = request.fault.map { .text(words.fault($0)) }
        context["broken"] = request.broken.map { .text(words.broken($0)) }
        context["recognised"] = request.recognised.map { .text(words("inspector_recognised_\($0.rawValue)")) }
        if let refusal = request.refusal {
            context["refusal"] = .object([
                "rule": .text(words.reason(refusal.rule, field: refusal.field)), "field": .text(refusal.field ?? ""),
                "correctShape": .text(words.correctShape(refusal.correctShape)),
            ])
        }
        return context
    }

    static let time: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter
    }()
}

/// The faults form: the vendor's settings as fields, and fields back as settings.
struct FaultsForm {
    let context: [String: TemplateValue]

    init(_ faults: RehearsedFaults, words: Words) {
        var context: [String: TemplateValue] = [
            "latency": .number(faults.latencyMs), "jitter": .number(faults.jitterMs),
            "fail": .number(faults.failPercent), "status": .number(faults.status), "drop": .number(faults.dropPercent),
            "slow_body": .number(faults.slowBodyMs), "broken": .number(faults.brokenPercent),
            "seed": .text(faults.seed.map(String.init) ?? ""),
        ]
        context["kinds"] = Self.kinds(words) { faults.broken.contains($0) }
        self.context = context
    }

    /// The form's fields, by name, with the market field each one fills.
    static let fields: [(name: String, field: MarketField)] = [
        ("latency", .latency), ("jitter", .jitter), ("fail", .failPercent), ("status", .failStatus),
        ("drop", .dropPercent), ("slow_body", .slowBody), ("broken", .brokenPercent), ("seed", .sent("seed")),
    ]

    /// A box to tick for each kind of broken answer; none ticked means every kind.
    static func kinds(_ words: Words, ticked: (BrokenAnswer) -> Bool) -> TemplateValue {
        .objects(
            BrokenAnswer.allCases.map { kind in
                [
                    "name": .text("broken_" + kind.rawValue), "label": .text(words("brokenKind.\(kind.rawValue)")),
                    "ticked": .flag(ticked(kind)),
                ]
            })
    }

    /// The form as it was typed, with why it was refused beside the field to blame.
    static func typed(_ form: FormSubmission, refused error: MarketError, words: Words) -> [String: TemplateValue] {
        var context: [String: TemplateValue] = [:]
        for (name, field) in fields {
            context[name] = .text(form[name])
            if error.field == field { context[name + "Error"] = .text(words.refusal(error)) }
        }
        if error.field == nil || !fields.contains(where: { $0.field == error.field }) {
            context["latencyError"] = .text(words.refusal(error))
        }
        context["kinds"] = kinds(words) { !form["broken_" + $0.rawValue].isEmpty }
        return context
    }

    static func faults(from form: FormSubmission) throws(MarketError) -> RehearsedFaults {
        func number(_ name: String, _ field: MarketField, default value: Int = 0) throws(MarketError) -> Int {
            let text = form[name].trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return value }
            guard let number = Int(text) else {
                throw MarketError(.invalid, field: field, rule: "must be a whole number")
            }
            return number
        }
        let seedText = form["seed"].trimmingCharacters(in: .whitespaces)
        guard seedText.isEmpty || UInt64(seedText) != nil else {
            throw MarketError(.invalid, field: .sent("seed"), rule: "must be a whole number of 0 or more")
        }
        return try RehearsedFaults(
            latencyMs: number("latency", .latency), jitterMs: number("jitter", .jitter),
            failPercent: number("fail", .failPercent), status: number("status", .failStatus, default: 503),
            dropPercent: number("drop", .dropPercent), slowBodyMs: number("slow_body", .slowBody),
            brokenPercent: number("broken", .brokenPercent),
            broken: BrokenAnswer.allCases.filter { !form["broken_" + $0.rawValue].isEmpty }, seed: UInt64(seedText)
        ).validated()
    }
}
