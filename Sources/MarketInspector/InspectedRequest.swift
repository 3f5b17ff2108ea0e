import Foundation

/// One request as the inspector shows it to the vendor who sent it: what arrived, what the market
/// made of it, what it answered and why. Secrets, passwords and delete secrets are masked.
package struct InspectedRequest: Codable, Sendable, Equatable {
    package struct Header: Codable, Sendable, Equatable {
        package var name: String
        package var value: String
    }

    /// One part of a multipart body.
    package struct Part: Codable, Sendable, Equatable {
        package var name: String
        package var filename: String?
        package var declaredType: String?
        /// What the bytes are, whatever the part says: "JPEG image", "text", …
        package var sniffedType: String
        package var size: Int
    }

    /// Why a refused request was refused, and what a request the market accepts looks like.
    package struct Refusal: Codable, Sendable, Equatable {
        package var rule: String
        package var field: String?
        package var correctShape: String
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
    package var answer: String
    package var refusal: Refusal?
    /// A rehearsed failure the vendor staged and this request met.
    package var fault: String?
    /// A command that sends the same request again; the secret comes from `$OPENMARKET_SECRET`.
    package var curl: String
}
