import Foundation

/// One request as the inspector shows it to the vendor who sent it: what arrived, what the market
/// made of it, what it answered and why. Secrets, passwords and delete secrets are masked.
package struct InspectedRequest: Codable, Sendable, Equatable {
    /// What stands in a record, a log line or a resend command where a secret was.
    package static let mask = "•••"

    package struct Header: Codable, Sendable, Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One part of a multipart body.
    package struct Part: Codable, Sendable, Equatable {
        package var name: String
        package var filename: String?
        package var declaredType: String?
        /// What the bytes are, whatever the part says: "JPEG image", "text", …
        package var sniffedType: String
        package var size: Int

        package init(name: String, filename: String?, declaredType: String?, sniffedType: String, size: Int) {
            self.name = name
            self.filename = filename
            self.declaredType = declaredType
            self.sniffedType = sniffedType
            self.size = size
        }
    }

    /// Why a refused request was refused, and what a request the market accepts looks like.
    package struct Refusal: Codable, Sendable, Equatable {
        package var rule: String
        package var field: String?
        package var correctShape: String

        package init(rule: String, field: String?, correctShape: String) {
            self.rule = rule
            self.field = field
            self.correctShape = correctShape
        }
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
    /// What the market forgave in the request, in words.
    package var quirks: [String]
    /// Where the body went wrong so that the market could not find a part, in words; nil when nowhere.
    package var mistakes: [String]?
    /// A shape that told the market which apps sent the request, and so how to answer.
    package var recognised: RecognisedShape?
    package var answer: String
    package var refusal: Refusal?
    /// A rehearsed failure the vendor staged and this request met.
    package var fault: String?
    /// How the answer was broken on purpose, for a vendor who rehearses broken answers.
    package var broken: String?
    /// A command that sends the same request again; the secret comes from `$OPENMARKET_SECRET`.
    package var curl: String

    package init(
        method: String, path: String, status: Int, milliseconds: Double, headers: [Header], bodyBytes: Int,
        parts: [Part], json: String?, quirks: [String], mistakes: [String]?, recognised: RecognisedShape?,
        answer: String,
        refusal: Refusal?, fault: String?, broken: String? = nil, curl: String
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.milliseconds = milliseconds
        self.headers = headers
        self.bodyBytes = bodyBytes
        self.parts = parts
        self.json = json
        self.quirks = quirks
        self.mistakes = mistakes
        self.recognised = recognised
        self.answer = answer
        self.refusal = refusal
        self.fault = fault
        self.broken = broken
        self.curl = curl
    }
}
