import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketInspector
import MarketModel

/// The request inspector for a signed-in vendor: what their app sent lately and what the market
/// made of it, the failures they rehearse, and a fresh start.
extension Storefront {
    @Sendable func inspector(_ request: Request, context: StorefrontContext) async throws -> Response {
        var visit = context.visit
        guard let vendor = try await signedInVendor(visit) else { return signInAgain(&visit, next: "/inspector") }
        let records = try await rehearsals.requests(of: vendor.id, limit: 100).compactMap { stored in
            (try? JSONDecoder().decode(InspectedRequest.self, from: stored.detail)).map { InspectedRow(stored.at, $0) }
        }
        let faults = try await rehearsals.faults(of: vendor.id) ?? RehearsedFaults()
        return pages.page(
            "inspector", title: "Inspector", visit: visit,
            content: [
                "vendor": vendor.name, "identifier": vendor.identifier, "requests": records.map(\.context),
                "noRequests": records.isEmpty, "faults": FaultsForm(faults).context, "faultsOn": !faults.isOff,
                "kept": Rehearsals.keptRequests,
            ])
    }

    @Sendable func saveFaults(_ request: Request, context: StorefrontContext) async throws -> Response {
        var request = request
        var visit = context.visit
        let form = try await submission(&request, visit: visit)
        guard let vendor = try await signedInVendor(visit) else { return signInAgain(&visit, next: "/inspector") }
        if !form["clear"].isEmpty {
            try await rehearsals.setFaults(nil, vendorID: vendor.id)
            visit.leave(notice: "Faults are off: your requests are answered as anyone's.")
        } else {
            do {
                try await rehearsals.setFaults(try FaultsForm.faults(from: form), vendorID: vendor.id)
                visit.leave(notice: "Faults saved. They apply to requests with your identifier from the next second.")
            } catch let error as MarketError where error.kind == .invalid {
                visit.leave(notice: "Not saved: " + error.message(naming: \.description) + ".")
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
                of: VendorCredentials(identifier: vendor.identifier, secret: form["secret"]))
            visit.leave(notice: "Deleted \(deleted) product\(deleted == 1 ? "" : "s"). Your market is empty again.")
        } catch let error as MarketError where error.kind == .unauthorized || error.kind == .invalid {
            visit.leave(notice: "Nothing was deleted: that is not your secret.")
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
    let context: [String: Any]

    init(_ at: Date, _ request: InspectedRequest) {
        var context: [String: Any] = [
            "time": Self.time.string(from: at), "method": request.method, "path": request.path,
            "status": request.status, "refused": request.status >= 400,
            "milliseconds": String(format: "%.1f", request.milliseconds),
            "headers": request.headers.map { ["name": $0.name, "value": $0.value] },
            "bodyBytes": request.bodyBytes, "quirks": request.quirks, "answer": request.answer, "curl": request.curl,
            "parts": request.parts.map { part in
                [
                    "name": part.name, "filename": part.filename ?? "", "declaredType": part.declaredType ?? "",
                    "sniffedType": part.sniffedType, "size": part.size,
                ] as [String: Any]
            },
        ]
        context["hasParts"] = !request.parts.isEmpty
        context["hasQuirks"] = !request.quirks.isEmpty
        if let json = request.json { context["json"] = json }
        if let fault = request.fault { context["fault"] = fault }
        if let refusal = request.refusal {
            context["refusal"] = [
                "rule": refusal.rule, "field": refusal.field ?? "", "correctShape": refusal.correctShape,
            ]
        }
        self.context = context
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
    let context: [String: Any]

    init(_ faults: RehearsedFaults) {
        context = [
            "latency": faults.latencyMs, "jitter": faults.jitterMs, "fail": faults.failPercent, "status": faults.status,
            "drop": faults.dropPercent, "slowBody": faults.slowBodyMs, "seed": faults.seed.map(String.init) ?? "",
        ]
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
            seed: UInt64(seedText)
        ).validated()
    }
}
