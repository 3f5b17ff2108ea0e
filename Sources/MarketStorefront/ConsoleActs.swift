import Foundation
import Hummingbird
import MarketCore
import MarketModel

/// What an operator's act came to, shown on the console page the act redirects to.
struct ConsoleResult: Codable {
    var heading: String
    var identifier: String?
    var vendorID: Int64?
    /// A vendor's new secret, shown this once.
    var secret: String?

    var content: [String: TemplateValue] {
        var content: [String: TemplateValue] = ["heading": .text(heading)]
        content["identifier"] = identifier.map { .text($0) }
        content["vendorID"] = vendorID.map { .number($0) }
        content["secret"] = secret.map { .text($0) }
        return content
    }
}

/// What the console asks before an act that cannot be taken back: what will happen and to how
/// much, and for the gravest a word to type.
struct Confirmation {
    var heading: String
    var detail: String
    var button: String
    /// The fields the act was sent with, sent again with the answer.
    var fields: [(name: String, value: String)]
    /// The word the operator must type, or nil.
    var typedWord: String?
}

extension Storefront {
    /// Runs an operator's form. An act that cannot be taken back is asked about first; once done,
    /// the console is shown again by a redirect (so a reload never repeats the act), with what came
    /// of it; a refusal is shown at once, in words, beside the console.
    func operatorAct(
        _ request: Request, _ context: StorefrontContext, action: String,
        confirming ask: ((MarketOperator, FormSubmission, Words) async throws -> Confirmation)? = nil,
        _ act: (MarketOperator, FormSubmission, Words) async throws -> ConsoleResult
    ) async throws -> Response {
        var request = request
        var visit = context.visit
        let form = try await submission(&request, visit: visit)
        guard let actor = visit.signedInOperator() else { return try await consolePage(visit) }
        let words = visit.words
        do {
            if let ask {
                let confirmation = try await ask(actor, form, words)
                let typedRight = confirmation.typedWord.map { form["typed"].trimmingCharacters(in: .whitespaces) == $0 }
                if form["confirmed"] != "yes" || typedRight == false {
                    return confirmationPage(
                        confirmation, action: action, by: actor, visit: visit,
                        typedWrong: form["confirmed"] == "yes" && typedRight == false)
                }
            }
            visit.leave(consoleResult: try await act(actor, form, words))
            return redirect(to: "/operator", visit: visit)
        } catch let error as MarketError where error.kind != .unavailable {
            return try await consolePage(
                visit,
                failure: [
                    "heading": .text(words("operator_notDone")), "error": .text(words.refusal(error)),
                ], status: .unprocessableContent)
        }
    }

    private func confirmationPage(
        _ confirmation: Confirmation, action: String, by actor: MarketOperator, visit: Visit, typedWrong: Bool
    ) -> Response {
        let words = visit.words
        var content: [String: TemplateValue] = [
            "operator": .text(actor.name), "action": .text(action), "heading": .text(confirmation.heading),
            "detail": .text(confirmation.detail),
            "button": .text(confirmation.button),
            "fields": .objects(confirmation.fields.map { ["name": .text($0.name), "value": .text($0.value)] }),
        ]
        if let word = confirmation.typedWord {
            content["typed"] = .object(
                [
                    "prompt": .text(words("operator_typeToConfirm", ["word": word])),
                    "typedError": typedWrong ? .text(words("operator_typedWrong", ["word": word])) : false,
                ] as [String: TemplateValue])
        }
        return pages.page(
            "operator-confirm", title: confirmation.heading, visit: visit,
            status: typedWrong ? .unprocessableContent : .ok, content: content)
    }
}
