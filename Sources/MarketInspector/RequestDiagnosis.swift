import Foundation
import HTTPTypes
import MarketHTTPShared

/// Reads a request's bytes as the inspector shows them: its parts, its JSON with secrets masked, the liberties
/// the market forgave, and the mistakes that kept the market from finding its parts.
package struct RequestDiagnosis {
    /// A header shown masked: any whose name speaks of a secret, and those that carry credentials.
    static func masksHeader(_ name: String) -> Bool { name.namesSecret || name == "cookie" || name == "authorization" }
    /// How much of a text (a body, a part, JSON) is shown and masked: a product's JSON is a few KB, and
    /// showing more would only let one request make a record of megabytes.
    static let shownTextBytes = 64 * 1024

    package let head: HTTPRequest
    package let body: Data
    private(set) var quirks: [Quirk] = []
    private(set) var mistakes: [Mistake] = []
    private(set) var parts: [MultipartForm.Part] = []
    private(set) var json: JSONValue?

    package init(head: HTTPRequest, body: Data) {
        self.head = head
        self.body = body
        if let boundary = MultipartForm.boundary(in: head.headerFields[.contentType]) {
            readMultipart(boundary: boundary)
        } else if !body.isEmpty {
            readJSON(body, part: nil)
        }
    }

    package var headers: [InspectedRequest.Header] {
        head.headerFields.map { field in
            InspectedRequest.Header(
                name: field.name.rawName,
                value: Self.masksHeader(field.name.canonicalName) ? secretMask : field.value)
        }
    }

    package var inspectedParts: [InspectedRequest.Part] {
        parts.map {
            InspectedRequest.Part(
                name: $0.name, filename: $0.filename, declaredType: $0.declaredType, sniffed: Sniffed($0.body),
                size: $0.body.count)
        }
    }

    /// The request goes where a secret is taken (a DELETE) or issued (`/secret`, `/archived`): text
    /// that is no JSON in its body, and its answer, can only be one.
    var takesSecret: Bool {
        let path = (head.path ?? "").prefix { $0 != "?" }
        return head.method == .delete || path.hasSuffix("/secret") || path.hasSuffix("/archived")
    }

    package var maskedJSON: String? { json.map(Self.shownText) }

    /// The JSON with its secrets masked, as text cut at `shownTextBytes`: indenting a deeply nested value makes
    /// its text many times its size.
    static func shownText(of json: JSONValue) -> String {
        let text = text(of: masked(json))
        guard text.utf8.count > shownTextBytes else { return text }
        return String(decoding: text.utf8.prefix(shownTextBytes), as: UTF8.self) + "…"
    }

    // MARK: Multipart

    private mutating func readMultipart(boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        // Picture bodies run to megabytes, so the raw bytes are searched as MultipartForm searches them.
        let (first, closed, lf, crlf) = body.withUnsafeBytes { bytes in
            (
                MultipartForm.find(delimiter, in: bytes), MultipartForm.find(delimiter + Array("--".utf8), in: bytes),
                MultipartForm.find([0x0A] + delimiter, in: bytes),
                MultipartForm.find([0x0D, 0x0A] + delimiter, in: bytes)
            )
        }
        if let first, first > 0 {
            let before = body.prefix(first)
            quirks.append(
                before.allSatisfy { $0 == 0x0D || $0 == 0x0A }
                    ? .crlfBeforeBoundary : .bytesBeforeBoundary(before.count))
        }
        guard first != nil else { return noBoundaryFound(boundary) }
        if closed == nil { quirks.append(.noClosingBoundary(boundary)) }
        if lf != nil, crlf == nil { quirks.append(.bareLineFeeds) }
        parts = (try? MultipartForm(body: body, boundary: boundary))?.parts ?? []
        findMistakes(delimiter: delimiter)
        let heads = parts.flatMap(\.head)
        if heads.contains(where: { $0.range(of: "Content-Disposition:form-data", options: .caseInsensitive) != nil }) {
            quirks.append(.noSpaceAfterDisposition)
        }
        if heads.contains(where: {
            Self.unquotedName.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
        }) {
            quirks.append(.unquotedName)
        }
        for part in parts where part.isFile {
            let sniffed = Sniffed(part.body)
            if part.declaredType == nil {
                quirks.append(.fileWithoutType(part: part.name, bytes: sniffed))
            } else if let type = part.declaredType, let expected = Sniffed(declared: type), expected != sniffed {
                quirks.append(.fileTypeDiffers(part: part.name, declared: type, bytes: sniffed))
            }
        }
        if let params = parts.first(where: { $0.name == "params" }) { readJSON(params.body, part: "params") }
    }

    /// The declared boundary is nowhere in the body: another one, or none.
    private mutating func noBoundaryFound(_ boundary: String) {
        let text = String(decoding: body.prefix(512), as: UTF8.self).drop(while: \.isNewline)
        if text.hasPrefix("--"), let line = text.split(whereSeparator: \.isNewline).first, line.count > 2 {
            mistakes.append(.otherBoundary(seen: String(line), boundary: boundary))
        } else if !body.isEmpty {
            mistakes.append(.noBoundary(boundary))
        }
    }

    /// Where a boundary line or a part's head does not end as it must, so that a part went missing
    /// or lost its bytes: what was seen there, and what belongs there.
    private mutating func findMistakes(delimiter: [UInt8]) {
        var start = 0
        while let found = body.withUnsafeBytes({ MultipartForm.find(delimiter, in: $0, from: start) }) {
            start = found + delimiter.count
            // Only a part's head glued to its boundary line is a mistake; anything else after it (a longer
            // boundary that only begins as declared) the market forgives. The first one is enough.
            let seen = Self.excerpt(body[(body.startIndex + start)...])
            guard seen.contains(":") else { continue }
            mistakes.append(.boundaryLineNotEnded(boundary: String(decoding: delimiter, as: UTF8.self), seen: seen))
            break
        }
        // A head line that is no header (no colon, or JSON) was the part's bytes, read as head.
        for part in parts {
            guard let line = part.head.dropFirst().first(where: { !$0.contains(":") || $0.hasPrefix("{") }) else {
                continue
            }
            // The part's own name, from its first head line: a later part's head may have been read as its own.
            let name = part.head.first.flatMap { HeaderParameters.value(of: "name", in: $0) } ?? part.name
            let seen = name.namesSecret ? secretMask : Self.excerpt(Data(line.utf8))
            mistakes.append(.headNotEnded(part: name, seen: seen))
        }
    }

    /// The first bytes of `bytes` as text, secrets masked before they are cut.
    static func excerpt(_ bytes: Data) -> String {
        // A CR LF is one Character to Swift: `isNewline` finds it, and a lone CR or LF.
        let line = String(decoding: bytes.prefix(256), as: UTF8.self).prefix { !$0.isNewline }
        let masked = maskingSecrets(in: String(line))
        return masked.count > 60 ? masked.prefix(60) + "…" : masked
    }

    // MARK: JSON

    /// `part` is nil for the body itself.
    private mutating func readJSON(_ data: Data, part: String?) {
        guard let value = try? LenientJSONParser.parse(data) else { return }
        if data.count <= Self.shownTextBytes { json = value }
        if (try? JSONSerialization.jsonObject(with: data)) == nil { quirks.append(.lenientJSON(part: part)) }
        guard case .object(let fields) = value else { return }
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            let snake = Self.snakeCase(key)
            if snake != key { quirks.append(.camelCaseKey(key, read: snake)) }
            switch value {
            case .string(let text) where Self.amountKeys.contains(snake) && Int64(text) != nil:
                quirks.append(.numberAsText(key: key, text: text))
            case .number(let literal) where Self.amountKeys.contains(snake) && Int64(literal) == nil:
                // Only a whole amount in range is read at all; anything else is refused, not forgiven.
                if let whole = Double(literal).flatMap({ Int64(exactly: $0) }) {
                    quirks.append(.wholeNumber(key: key, sent: literal, read: whole))
                }
            default: break
            }
        }
    }

    private static let unquotedName = try! NSRegularExpression(pattern: #"[; ]name=[^"\s]"#)

    static let amountKeys: Set<String> = ["price", "discounted_price", "stock", "thumbnail_id"]

    static func snakeCase(_ key: String) -> String {
        key.reduce(into: "") { result, character in
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
    }

    /// A body's JSON with every secret masked. A bare string is one itself: the only routes that take
    /// one (`/secret`, `/archived`, a 2022 DELETE) take a secret.
    static func masked(_ value: JSONValue) -> JSONValue {
        if case .string = value { return .string(secretMask) }
        return maskedMembers(value)
    }

    private static func maskedMembers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let fields):
            .object(
                fields.reduce(into: [:]) { result, field in
                    result[field.key] = field.key.namesSecret ? .string(secretMask) : maskedMembers(field.value)
                })
        case .array(let values): .array(values.map(maskedMembers))
        default: value
        }
    }

    /// JSON text with keys in order, two spaces per level.
    static func text(of value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .object(let fields):
            guard !fields.isEmpty else { return "{}" }
            let lines = fields.sorted { $0.key < $1.key }.map {
                "\(inner)\(quoted($0.key)): \(text(of: $0.value, indent: inner))"
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        case .array(let values):
            guard !values.isEmpty else { return "[]" }
            return "[\n" + values.map { inner + text(of: $0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .string(let string): return quoted(string)
        case .number(let literal): return literal
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        }
    }

    static func quoted(_ string: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [string], options: [.withoutEscapingSlashes])) ?? Data()
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
