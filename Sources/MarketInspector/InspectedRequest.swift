import MarketCore
import MarketHTTPShared
import MarketPages

/// One request as the inspector keeps it for the vendor who sent it, each explanation as a value.
/// Secrets, passwords and delete secrets are masked before it is made.
package struct InspectedRequest: Codable, Sendable, Equatable {
    package struct Header: Codable, Sendable, Equatable {
        package var name: String
        package var value: String
    }

    package struct Part: Codable, Sendable, Equatable {
        package var name: String
        package var filename: String?
        package var declaredType: String?
        var sniffed: Sniffed
        package var size: Int
    }

    /// Why a refused request was refused, and what a request the market accepts looks like.
    package struct Refusal: Codable, Sendable, Equatable {
        /// The market's reason; nil for a refusal that is none of the market's (an address nothing
        /// answers), whose English `said` holds.
        var error: MarketError?
        /// The reason as the API said it.
        var said: String
        /// The field to blame, as the request's dialect spells it.
        var field: String?
        var shape: RequestShape
    }

    package var method: String
    /// The path and query as sent, delete secrets masked.
    package var path: String
    package var status: Int
    package var milliseconds: Double
    package var headers: [Header]
    package var bodyBytes: Int
    package var parts: [Part]
    /// The JSON the request carried (the body, or the `params` part), as read, secrets masked.
    package var json: String?
    var quirks: [Quirk]
    var mistakes: [Mistake]
    /// A shape that told the market which apps sent the request, and so how to answer.
    package var recognised: RecognisedShape?
    /// The answer's text; empty when it was no text, which `answerBytes` describes.
    package var answer: String
    var answerBytes: AnswerBytes?
    var refusal: Refusal?
    /// A rehearsed failure the vendor staged and this request met.
    var fault: RehearsedEffects?
    var broken: BrokenSaid?
    /// The hard cases the team rehearses that shaped the answer, and how many items it gave again (`shifting`).
    var hardCases: [HardCase]?
    var repeatedItems: Int?
    /// The teacher's rehearsal for every team shaped it (nil: only the vendor's own, or none).
    var forEveryTeam: Bool?
    /// A command that sends the same request again; the secret comes from `$OPENMARKET_SECRET`.
    package var curl: String
    /// What `curl` needs before it runs; nil in records kept before it was noted.
    var curlNeeds: CurlNeeds?

    /// The record as the inspector's JSON twin and the command give it: every explanation in English.
    package var twin: Twin {
        let english = Localization.english
        return Twin(
            method: method, path: path, status: status, milliseconds: milliseconds, headers: headers,
            bodyBytes: bodyBytes,
            parts: parts.map {
                Twin.Part(
                    name: $0.name, filename: $0.filename, declaredType: $0.declaredType,
                    sniffedType: english.explain($0.sniffed), size: $0.size)
            },
            json: json, quirks: quirks.map { english.explain($0) },
            mistakes: mistakes.isEmpty ? nil : mistakes.map { english.explain($0) },
            recognised: recognised, answer: answerBytes.map { english.explain($0) } ?? answer,
            refusal: refusal.map {
                Twin.Refusal(rule: $0.said, field: $0.field, correctShape: english.explain($0.shape))
            },
            fault: fault.map { english.explain($0) }, broken: broken.map { english.explain($0) },
            hardCases: hardCases, repeatedItems: repeatedItems, forEveryTeam: forEveryTeam, curl: curl)
    }

    package struct Twin: Codable, Sendable, Equatable {
        package struct Part: Codable, Sendable, Equatable {
            package var name: String
            package var filename: String?
            package var declaredType: String?
            package var sniffedType: String
            package var size: Int
        }

        package struct Refusal: Codable, Sendable, Equatable {
            package var rule: String
            package var field: String?
            package var correctShape: String
        }

        package var method: String
        package var path: String
        package var status: Int
        package var milliseconds: Double
        package var headers: [Header]
        package var bodyBytes: Int
        package var parts: [Part]
        package var json: String?
        package var quirks: [String]
        package var mistakes: [String]?
        package var recognised: RecognisedShape?
        package var answer: String
        package var refusal: Refusal?
        package var fault: String?
        package var broken: String?
        package var hardCases: [HardCase]?
        package var repeatedItems: Int?
        package var forEveryTeam: Bool?
        package var curl: String
    }
}
