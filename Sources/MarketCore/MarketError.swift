import MarketModel

/// Why the market refused a request. Adapters turn the kind into their dialect's status code and
/// show the message (and field, where one is to blame) to the client.
public struct MarketError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case invalid
        case unauthorized
        case forbidden
        case notFound
        case tooLarge
        case conflict
        /// Something the market depends on (its database) cannot be reached; try again later.
        case unavailable
        /// Too many wrong secrets: nothing is checked until `retryAfter` seconds have passed.
        case throttled
    }

    /// What is wrong: a rule the named field breaks, or a whole sentence.
    public enum Explanation: Sendable, Equatable {
        /// Said after the field's name, as the door the request came in by spells it: "must be 0 or more".
        case rule(String)
        case sentence(String)
    }

    public var kind: Kind
    public var field: MarketField?
    public var explanation: Explanation
    /// Seconds after which the same request may succeed, for `throttled` and `unavailable`.
    public var retryAfter: Int?

    public init(_ kind: Kind, field: MarketField? = nil, _ sentence: String, retryAfter: Int? = nil) {
        self.kind = kind
        self.field = field
        self.explanation = .sentence(sentence)
        self.retryAfter = retryAfter
    }

    public init(_ kind: Kind, field: MarketField, rule: String) {
        self.kind = kind
        self.field = field
        self.explanation = .rule(rule)
    }

    /// The message, with the field named as `name` spells it.
    public func message(naming name: (MarketField) -> String) -> String {
        switch (explanation, field) {
        case (.rule(let rule), let field?): "\(name(field)) \(rule)"
        case (.rule(let words), nil), (.sentence(let words), _): words
        }
    }

    public var description: String { message(naming: \.description) }

    public static func invalid(_ error: ValidationError) -> MarketError {
        MarketError(.invalid, field: error.field, rule: error.rule)
    }

    public static func missing(_ field: MarketField) -> MarketError {
        MarketError(.invalid, field: field, rule: "is required")
    }

    public static let wrongCredentials = MarketError(
        .unauthorized, field: .secret, "the identifier and secret do not match a vendor")

    public static func productNotFound(_ id: Int64) -> MarketError {
        MarketError(.notFound, "no product has the id \(id)")
    }

    /// Said only to the product's own vendor, once their secret or sign-in is proven.
    public static func hiddenByOperator(_ productID: Int64) -> MarketError {
        MarketError(.notFound, "product \(productID) was hidden by the market's operator; ask them to show it again")
    }

    public static func notOwner(_ productID: Int64) -> MarketError {
        MarketError(.forbidden, "product \(productID) belongs to another vendor")
    }

    public static func unavailable(_ message: String) -> MarketError {
        MarketError(.unavailable, message)
    }

    public static func throttled(retryAfter seconds: Int) -> MarketError {
        MarketError(
            .throttled, field: .secret,
            "too many wrong secrets; try again in \(seconds) second\(seconds == 1 ? "" : "s")", retryAfter: seconds)
    }

    public static let wrongProductSecret = MarketError(
        .invalid, field: .productSecret,
        rule: "is not a valid delete secret for this product; ask POST /api/products/{id}/secret for one")
}
