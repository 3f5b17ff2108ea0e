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

    public var kind: Kind
    public var field: String?
    public var message: String
    /// Seconds after which the same request may succeed, for `throttled` and `unavailable`.
    public var retryAfter: Int?

    public init(_ kind: Kind, field: String? = nil, _ message: String, retryAfter: Int? = nil) {
        self.kind = kind
        self.field = field
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }

    public static func invalid(_ error: ValidationError) -> MarketError {
        MarketError(.invalid, field: error.field, "\(error.field) \(error.rule)")
    }

    public static func missing(_ field: String) -> MarketError {
        MarketError(.invalid, field: field, "\(field) is required")
    }

    public static let wrongCredentials = MarketError(
        .unauthorized, field: "secret", "the identifier and secret do not match a vendor")

    public static func productNotFound(_ id: Int64) -> MarketError {
        MarketError(.notFound, "no product has the id \(id)")
    }

    public static func notOwner(_ productID: Int64) -> MarketError {
        MarketError(.forbidden, "product \(productID) belongs to another vendor")
    }

    public static func unavailable(_ message: String) -> MarketError {
        MarketError(.unavailable, message)
    }

    public static func throttled(retryAfter seconds: Int) -> MarketError {
        MarketError(
            .throttled, field: "secret",
            "too many wrong secrets; try again in \(seconds) second\(seconds == 1 ? "" : "s")", retryAfter: seconds)
    }

    public static let wrongProductSecret = MarketError(
        .invalid, field: "product_secret",
        "product_secret is not a valid delete secret for this product; ask POST /api/products/{id}/secret for one")
}
