/// A rule of the market that a value breaks. Each adapter words it from this value, never from `english`: the APIs
/// and the command in English, the storefront and the inspector in the visitor's language.
public enum Rule: Sendable, Equatable, Codable {
    case required, notEmpty
    /// The first control character the value holds, as `U+0007`.
    case noControlCharacter(String)
    case maximumCharacters(Int)
    case notNegative, atLeastOne
    case atMost(Int64), notAbovePrice(Int64)
    /// From `low` to `high`, in `unit` (` ms`) when it has one.
    case between(Int, Int, unit: String = "")
    case upToLatency(milliseconds: Int)
    case errorStatus
    case minimumImages(Int), maximumImages(Int)
    case ownImage
    case uuid(example: String)
    case minimumLength(Int)
    case maximumBytes(Int)
    case deleteSecret
    case jsonObject, notJSON(problem: String, byte: Int)
    case text, number
    /// A number, not what was sent (written as it was sent, quotes and all).
    case numberNot(String)
    case wholeNumber, wholeNumberNot(String), wholeNumberFromZero
    /// One of these spellings, for a value whose spellings are few (a currency: `KRW or USD`).
    case oneOf([String])
    /// One of these names, not what was sent.
    case nameAmong([String], sent: String)
    case brokenKindAmong([String], sent: String)
    /// The body names one item and the path another.
    case sameItem(named: Int64, path: Int64)
    case imageBytes(size: Int, limit: Int)
    case notAnImage, heicUnreadable
    case damaged(format: String)
    /// libvips' reading of the header (`has 100000000 pixels`), and the limit.
    case tooManyPixels(detail: String, limit: Int)
    case notReencoded
    /// libvips could not read or make a picture, in its own words.
    case unreadable(String)

    /// The rule in the APIs' English, after the field's name.
    public var english: String {
        switch self {
        case .required: "is required"
        case .notEmpty: "must not be empty"
        case .noControlCharacter(let character): "must not contain the control character \(character)"
        case .maximumCharacters(let limit): "must be at most \(limit) characters"
        case .notNegative: "must be 0 or more"
        case .atLeastOne: "must be 1 or more"
        case .atMost(let limit): "must be at most \(limit)"
        case .notAbovePrice(let price): "must not be more than the price (\(price))"
        case .between(let low, let high, let unit): "must be from \(low) to \(high)\(unit)"
        case .upToLatency(let latency): "must be from 0 to the latency (\(latency) ms)"
        case .errorStatus: "must be an error status, from 400 to 599"
        case .minimumImages(let count): "must hold at least \(count) image"
        case .maximumImages(let count): "must hold at most \(count) images"
        case .ownImage: "must be the id of one of this product's images"
        case .uuid(let example): "must be a UUID such as \(example)"
        case .minimumLength(let length): "must be at least \(length) characters"
        case .maximumBytes(let bytes): "must be at most \(bytes) bytes"
        case .deleteSecret: "is not a valid delete secret for this product; ask POST /api/products/{id}/secret for one"
        case .jsonObject: "must be a JSON object"
        case .notJSON(let problem, let byte): "is not JSON: \(problem) at byte \(byte)"
        case .text: "must be text"
        case .number: "must be a number"
        case .numberNot(let sent): "must be a number, not \(sent)"
        case .wholeNumber: "must be a whole number"
        case .wholeNumberNot(let sent): "must be a whole number, not \(sent)"
        case .wholeNumberFromZero: "must be a whole number of 0 or more"
        case .oneOf(let spellings): "must be \(spellings.joined(separator: " or "))"
        case .nameAmong(let names, let sent): "must be one of \(names.joined(separator: ", ")), not \"\(sent)\""
        case .brokenKindAmong(let names, let sent): "must be among \(names.joined(separator: ", ")), not \(sent)"
        case .sameItem(let named, let path): "is \(named), but the path names item \(path)"
        case .imageBytes(let size, let limit): "is \(size) bytes; an image may be at most \(limit) bytes"
        case .notAnImage: "is not a JPEG, PNG, WebP or HEIC image"
        case .heicUnreadable:
            "is a HEIC photo, which this market cannot read; send it as a JPEG "
                + "(on an iPhone: Settings, Camera, Formats, Most Compatible)"
        case .damaged(let format): "is damaged or not a whole \(format) image; send the picture again"
        case .tooManyPixels(let detail, let limit): "\(detail); an image may have at most \(limit) pixels"
        case .notReencoded: "could not be encoded again; send the picture again"
        case .unreadable(let words): words
        }
    }
}

/// Input that breaks a rule of the market: names the field and the rule, so that a person can fix it.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: MarketField
    public var rule: Rule

    public init(field: MarketField, rule: Rule) {
        self.field = field
        self.rule = rule
    }

    public var description: String { "\(field) \(rule.english)" }
}
