import MarketCore
import MarketModel

/// The faults form (`fault-fields.mustache`): settings as fields, and fields back as settings, for a vendor's own
/// rehearsal in the inspector and the class's in the console.
package struct FaultsForm {
    package let context: PageContent

    package init(_ faults: FaultSettings, strings: Localization) {
        context = [
            "latency": faults.latencyMs, "jitter": faults.jitterMs,
            "fail": faults.failPercent, "status": faults.status, "drop": faults.dropPercent,
            "slow_body": faults.slowBodyMs, "broken": faults.brokenPercent,
            "seed": faults.seed.map(String.init) ?? "", "kinds": Self.kinds(strings) { faults.broken.contains($0) },
            "hardCases": Self.hardCases(strings) { faults.hardCases.contains($0) },
        ]
    }

    static let fields: [(name: String, field: MarketField)] = [
        ("latency", .latency), ("jitter", .jitter), ("fail", .failPercent), ("status", .failStatus),
        ("drop", .dropPercent), ("slow_body", .slowBody), ("broken", .brokenPercent), ("seed", .sent("seed")),
    ]

    /// A box to tick for each kind of broken answer; none ticked means every kind.
    static func kinds(_ strings: Localization, ticked: (BrokenAnswer) -> Bool) -> [[String: Any]] {
        BrokenAnswer.allCases.map { kind in
            [
                "name": "broken_" + kind.rawValue, "label": strings("brokenKind.\(kind.rawValue)"),
                "ticked": ticked(kind),
            ]
        }
    }

    /// A box to tick for each hard case, with what it tries.
    static func hardCases(_ strings: Localization, ticked: (HardCase) -> Bool) -> [[String: Any]] {
        HardCase.allCases.map { hardCase in
            [
                "name": "case_" + hardCase.rawValue, "label": strings("hardCase.\(hardCase.rawValue)"),
                "tries": strings("hardCase.\(hardCase.rawValue).tries"), "ticked": ticked(hardCase),
            ]
        }
    }

    /// The form as it was typed, with why it was refused beside the field to blame.
    package static func typed(_ form: FormSubmission, refused error: MarketError, strings: Localization) -> PageContent
    {
        var context: PageContent = [:]
        for (name, field) in fields {
            context[name] = form[name]
            if error.field == field { context[name + "Error"] = strings.refusal(error) }
        }
        if error.field == nil || !fields.contains(where: { $0.field == error.field }) {
            context["latencyError"] = strings.refusal(error)
        }
        context["kinds"] = kinds(strings) { !form["broken_" + $0.rawValue].isEmpty }
        context["hardCases"] = hardCases(strings) { !form["case_" + $0.rawValue].isEmpty }
        return context
    }

    package static func faults(from form: FormSubmission) throws(MarketError) -> FaultSettings {
        func number(_ name: String, _ field: MarketField, default value: Int = 0) throws(MarketError) -> Int {
            let text = form[name].trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return value }
            guard let number = Int(text) else { throw MarketError(.invalid, field: field, rule: .wholeNumber) }
            return number
        }
        let seedText = form["seed"].trimmingCharacters(in: .whitespaces)
        guard seedText.isEmpty || UInt64(seedText) != nil else {
            throw MarketError(.invalid, field: .sent("seed"), rule: .wholeNumberFromZero)
        }
        return try FaultSettings(
            latencyMs: number("latency", .latency), jitterMs: number("jitter", .jitter),
            failPercent: number("fail", .failPercent), status: number("status", .failStatus, default: 503),
            dropPercent: number("drop", .dropPercent), slowBodyMs: number("slow_body", .slowBody),
            brokenPercent: number("broken", .brokenPercent),
            broken: BrokenAnswer.allCases.filter { !form["broken_" + $0.rawValue].isEmpty },
            hardCases: HardCase.allCases.filter { !form["case_" + $0.rawValue].isEmpty }, seed: UInt64(seedText)
        ).validated()
    }
}

extension Localization {
    /// Fault settings in a line: "2,000 ms of latency, 10% failing with 503, seed 7".
    package func describe(_ faults: FaultSettings) -> String {
        let latency = ["milliseconds": number(faults.latencyMs), "jitter": number(faults.jitterMs)]
        let kinds = faults.broken.map { self("brokenKind.\($0.rawValue)") }.joined(separator: ", ")
        return [
            faults.latencyMs == 0
                ? nil : self(faults.jitterMs == 0 ? "faults.latency" : "faults.latencyJitter", latency),
            faults.failPercent == 0
                ? nil
                : self("faults.failing", ["percent": String(faults.failPercent), "status": String(faults.status)]),
            faults.dropPercent == 0 ? nil : self("faults.dropped", ["percent": String(faults.dropPercent)]),
            faults.slowBodyMs == 0 ? nil : self("faults.slowBody", ["milliseconds": number(faults.slowBodyMs)]),
            faults.brokenPercent == 0
                ? nil
                : self(
                    "faults.brokenShare",
                    ["percent": String(faults.brokenPercent), "kinds": kinds.isEmpty ? self("faults.anyWay") : kinds]),
            faults.hardCases.isEmpty
                ? nil
                : self(
                    "faults.hardCases",
                    ["cases": faults.hardCases.map { self("hardCase.\($0.rawValue)") }.joined(separator: ", ")]),
            faults.seed.map { self("faults.seed", ["seed": String($0)]) },
        ].compactMap { $0 }.joined(separator: ", ")
    }
}
