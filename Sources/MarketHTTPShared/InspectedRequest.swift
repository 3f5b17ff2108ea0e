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

extension String {
    /// This path with every UUID-shaped segment (a delete secret, in any of its spellings) masked,
    /// for a record or a log line.
    package var maskingSecrets: String {
        guard mayHoldSecret else { return self }
        return split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.mayBeUUID && UUID(uuidString: segment.removingPercentEncoding ?? String(segment)) != nil
                ? InspectedRequest.mask : String(segment)
        }.joined(separator: "/")
    }

    /// Some segment may be a UUID: most paths have none, and are not split to find out.
    private var mayHoldSecret: Bool {
        var (length, escaped) = (0, false)
        for byte in utf8 {
            if byte == UInt8(ascii: "/") {
                if Self.uuidShaped(length: length, escaped: escaped) { return true }
                (length, escaped) = (0, false)
            } else {
                length += 1
                escaped = escaped || byte == UInt8(ascii: "%")
            }
        }
        return Self.uuidShaped(length: length, escaped: escaped)
    }

    /// A UUID has 36 characters; written with percent escapes, more (and a `%`).
    fileprivate static func uuidShaped(length: Int, escaped: Bool) -> Bool {
        length == 36 || (length > 36 && escaped)
    }
}

extension Substring {
    fileprivate var mayBeUUID: Bool {
        String.uuidShaped(length: utf8.count, escaped: utf8.contains(UInt8(ascii: "%")))
    }
}
