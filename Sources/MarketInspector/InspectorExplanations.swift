import Foundation
import MarketCore
import MarketModel
import MarketPages

extension InspectedRequest.Refusal {
    /// What kind of refusal this is, whatever the request's own values: the reason's name, and a rule's with its field.
    var kind: String {
        guard let error else { return "unanswered" }
        guard case .rule(let rule) = error.reason else {
            if case .noProductCalled = error.reason { return "noProduct" }
            return Self.caseName(error.reason)
        }
        return "\(field ?? "") \(Self.caseName(rule))"
    }

    /// The kind in the APIs' English, as the class board's JSON says it.
    var kindSaid: String {
        if let phrase = Localization.english.kindPhrase(self) { return phrase }
        guard let field, case .rule(let rule)? = error?.reason else { return said }
        return "\(field) \(rule.general.english)"
    }

    /// An enum value's case, without what it carries.
    private static func caseName(_ value: Any) -> String {
        Mirror(reflecting: value).children.first?.label ?? String(describing: value)
    }
}

extension Rule {
    /// The rule without what one request sent: "must be a whole number", not "…, not "abc"".
    var general: Rule {
        switch self {
        case .wholeNumberNot: .wholeNumber
        case .numberNot: .number
        case .nameAmong(let names, _), .brokenKindAmong(let names, _): .oneOf(names)
        case .notJSON: .jsonObject
        case .imageBytes(_, let limit): .maximumBytes(limit)
        default: self
        }
    }
}

/// The inspector's explanations in the page's language, each from its typed value. The request's
/// and the answer's own bytes are never translated.
extension Localization {
    /// The inspector's phrases in English with plain numbers: what the JSON twin, the class board's JSON
    /// and `openmarket inspect` say.
    static let english: Localization = {
        var phrases: [String: String] = [:]
        for folder in [Website.resources, InspectorPages.resources].compactMap({ $0 }) {
            let file = folder.appendingPathComponent("words/en.json")
            guard let words = try? JSONDecoder().decode([String: String].self, from: Data(contentsOf: file)) else {
                continue
            }
            phrases.merge(words) { _, new in new }
        }
        return Localization(language: .en, phrases: phrases, plainNumbers: true)
    }()

    /// Why the market refused a request, naming the field as the request spelled it.
    func explain(_ refusal: InspectedRequest.Refusal) -> String {
        guard let error = refusal.error else { return refusal.said }
        guard case .rule(let rule) = error.reason, let field = refusal.field else { return self.refusal(error) }
        return said(rule, field: .sent(field))
    }

    /// A kind of refusal, the same words for every request of that kind whichever product or value it named:
    /// "asked for a product that is not there", "price must be a whole number".
    func explainKind(_ refusal: InspectedRequest.Refusal) -> String {
        if let phrase = kindPhrase(refusal) { return phrase }
        guard let error = refusal.error, case .rule(let rule) = error.reason else { return explain(refusal) }
        return said(rule.general, field: .sent(refusal.field ?? error.field?.wireName ?? ""))
    }

    /// The words for a kind of refusal whose refusals each name something of their own (a product, a page).
    func kindPhrase(_ refusal: InspectedRequest.Refusal) -> String? {
        switch refusal.error?.reason {
        case nil, .noProduct, .noProductCalled, .hiddenByOperator, .notOwner, .throttled, .noVendor, .noTeam,
            .noPage, .noImage, .noBoundary, .lineBreaksReversed:
            self("refusalKind.\(refusal.kind)")
        default: nil
        }
    }

    func explain(_ quirk: Quirk) -> String {
        switch quirk {
        case .crlfBeforeBoundary: self("quirk.crlfBeforeBoundary")
        case .bytesBeforeBoundary(let count): self("quirk.bytesBeforeBoundary", ["count": number(count)])
        case .noClosingBoundary(let boundary): self("quirk.noClosingBoundary", ["boundary": "--\(boundary)--"])
        case .bareLineFeeds: self("quirk.bareLineFeeds")
        case .noSpaceAfterDisposition: self("quirk.noSpaceAfterDisposition")
        case .unquotedName: self("quirk.unquotedName")
        case .fileWithoutType(let part, let bytes):
            self("quirk.fileWithoutType", ["part": part, "bytes": explain(bytes)])
        case .fileTypeDiffers(let part, let declared, let bytes):
            self("quirk.fileTypeDiffers", ["part": part, "declared": declared, "bytes": explain(bytes)])
        case .lenientJSON(let part): self("quirk.lenientJSON", ["part": part ?? self("inspector_theBody")])
        case .camelCaseKey(let key, let read): self("quirk.camelCaseKey", ["key": key, "read": read])
        case .numberAsText(let key, let text): self("quirk.numberAsText", ["key": key, "text": text])
        case .wholeNumber(let key, let sent, let read):
            self("quirk.wholeNumber", ["key": key, "sent": sent, "read": String(read)])
        }
    }

    /// The rehearsed failure a request met: "Rehearsed: held back 800 ms; answered 503 …".
    func explain(_ fault: RehearsedEffects) -> String {
        let effects = [
            fault.heldBackMilliseconds.map { self("fault.heldBack", ["milliseconds": number($0)]) },
            fault.answered.map { self("fault.answered", ["status": String($0)]) },
            fault.dropped ? self("fault.dropped") : nil,
            fault.trickledMilliseconds.map { self("fault.trickled", ["milliseconds": number($0)]) },
        ].compactMap { $0 }
        return self("fault.rehearsed", ["effects": effects.joined(separator: "; ")])
    }

    func explain(_ broken: BrokenSaid) -> String {
        switch broken {
        case .emptyBody: self("broken.emptyBody")
        case .proxyPage: self("broken.proxyPage")
        case .truncated(let kept, let total): self("broken.truncated", ["kept": number(kept), "total": number(total)])
        case .missingKey(let key): self("broken.missingKey", ["key": key])
        case .null(let key): self("broken.null", ["key": key])
        case .numberAsText(let key, let text): self("broken.numberAsText", ["key": key, "text": text])
        case .unknownCurrency(let currency): self("broken.unknownCurrency", ["currency": currency])
        case .extraKey(let key): self("broken.extraKey", ["key": key])
        case .otherDate(let key, let text): self("broken.otherDate", ["key": key, "text": text])
        }
    }

    func explain(_ mistake: Mistake) -> String {
        switch mistake {
        case .otherBoundary(let seen, let boundary):
            self("mistake.otherBoundary", ["seen": seen, "boundary": boundary])
        case .noBoundary(let boundary): self("mistake.noBoundary", ["boundary": boundary])
        case .boundaryLineNotEnded(let boundary, let seen):
            self("mistake.boundaryLineNotEnded", ["boundary": boundary, "seen": seen])
        case .headNotEnded(let part, let seen): self("mistake.headNotEnded", ["part": part, "seen": seen])
        }
    }

    /// What bytes were, as the inspector sniffed them: "a JPEG image", "text", …
    func explain(_ bytes: Sniffed) -> String { self("bytes.\(bytes.rawValue)") }

    /// An answer that is no text: "JPEG image, 15,234 bytes, 400 × 300 pixels".
    func explain(_ answer: AnswerBytes) -> String {
        var values = ["type": explain(answer.sniffed), "bytes": number(answer.bytes)]
        guard let width = answer.width, let height = answer.height else { return self("answer.bytes", values) }
        (values["width"], values["height"]) = (number(width), number(height))
        return self("answer.picture", values)
    }

    /// What a request the market accepts looks like, for the thing the refused request tried.
    func explain(_ shape: RequestShape) -> String { self("shape.\(shape.rawValue)") }
}
