import Foundation
import Hummingbird
import MarketCore
import MarketModel
import MarketPages

/// What an operator's act came to, shown on the console page the act redirects to.
struct ConsoleResult: Codable {
    var heading: String
    var identifier: String?
    var vendorID: Int64?
    /// A vendor's new secret, shown this once.
    var secret: String?

    var content: PageContent { ["heading": heading, "identifier": identifier, "vendorID": vendorID, "secret": secret] }
}

/// What the console asks before an irreversible act: what happens, to how much, and for the gravest a word to type.
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
    /// Runs an operator's form, confirming first an act that cannot be taken back. Done, it redirects to
    /// the console so that a reload never repeats it; a refusal is shown at once beside the console.
    func operatorAct(
        _ request: Request, _ context: PageRequestContext, action: String,
        confirming ask: ((MarketOperator, FormSubmission, Localization) async throws -> Confirmation)? = nil,
        _ act: (MarketOperator, FormSubmission, Localization) async throws -> ConsoleResult
    ) async throws -> Response {
        var browser = context.browser
        let form = try await website.submission(request, browser: browser)
        guard let actor = browser.signedInOperator() else {
            return try await consolePage(browser, origin: request.origin)
        }
        let strings = browser.strings
        do {
            if let ask {
                let confirmation = try await ask(actor, form, strings)
                let typedRight = confirmation.typedWord.map { form["typed"].trimmingCharacters(in: .whitespaces) == $0 }
                if form["confirmed"] != "yes" || typedRight == false {
                    return confirmationPage(
                        confirmation, action: action, by: actor, browser: browser,
                        typedWrong: form["confirmed"] == "yes" && typedRight == false)
                }
            }
            browser.leave(consoleResult: try await act(actor, form, strings))
            return website.redirect(to: "/operator", browser: browser)
        } catch let error as MarketError where error.kind != .unavailable {
            return try await notDone(strings.refusal(error), browser: browser, origin: request.origin)
        } catch let refusal as ConsoleRefusal {
            return try await notDone(strings(refusal.phrase, refusal.values), browser: browser, origin: request.origin)
        }
    }

    private func notDone(_ why: String, browser: BrowserSession, origin: String) async throws -> Response {
        try await consolePage(
            browser, origin: origin, failure: ["heading": browser.strings("operator_notDone"), "error": why],
            status: .unprocessableContent)
    }

    private func confirmationPage(
        _ confirmation: Confirmation, action: String, by actor: MarketOperator, browser: BrowserSession,
        typedWrong: Bool
    ) -> Response {
        let strings = browser.strings
        let content: PageContent = [
            "operator": actor.name, "action": action, "heading": confirmation.heading,
            "detail": confirmation.detail, "button": confirmation.button,
            "fields": confirmation.fields.map { ["name": $0.name, "value": $0.value] },
            "typed": confirmation.typedWord.map { word -> PageContent in
                [
                    "prompt": strings("operator_typeToConfirm", ["word": word]),
                    "typedError": typedWrong ? strings("operator_typedWrong", ["word": word]) : nil,
                ]
            },
        ]
        return renderer.page(
            "operator-confirm", title: confirmation.heading, browser: browser,
            status: typedWrong ? .unprocessableContent : .ok, content: content)
    }
}

/// What the console refuses of a form before the market sees it: a phrase's key.
struct ConsoleRefusal: Error {
    var phrase: String
    var values: [String: String] = [:]
}
