import MarketModel

/// Why the market refused a request: the kind of refusal (each adapter picks its status code from it), the field
/// to blame, and the reason. The APIs and the command say the reason in English (`message(naming:)`), the
/// storefront and the inspector in the visitor's language.
public struct MarketError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, Codable {
        case invalid, unauthorized, forbidden, notFound, tooLarge, conflict
        /// Something the market depends on (its database) cannot be reached; try again later.
        case unavailable
        /// Too many wrong secrets: nothing is checked until `retryAfter` seconds have passed.
        case throttled
    }

    public enum Reason: Sendable, Equatable, Codable {
        case rule(Rule)
        case noProduct(Int64)
        /// A path names a product by something that is no number.
        case noProductCalled(String)
        case hiddenByOperator(Int64), notOwner(Int64)
        case wrongCredentials, wrongItemPassword
        /// Nothing is checked for `seconds`, after `failures` wrong secrets in the last hour (`cause`'s).
        case throttled(seconds: Int, cause: ThrottleCause? = nil, failures: Int? = nil)
        case sessionEnded
        case noVendor(identifier: String)
        /// A team address names a vendor_id no vendor has.
        case noTeam(Int64)
        case vendorIDTaken(Int64), vendorIdentifierTaken(String), operatorTaken(String)
        case noPage(String), noImage(String)
        case bodyTooLarge(Int)
        case noBoundary(String)
        /// A multipart body whose lines end in LF CR (`\n\r`) rather than CR LF: every part's head is lost.
        case lineBreaksReversed
        case createTakesMultipart, itemsTakeMultipart
        /// A body for a vendor's faults that is no JSON object of settings.
        case notFaultsJSON
        case databaseUnreachable, databaseReadOnly
        /// The folder pictures are kept in takes no writes; the operating system's reason.
        case imagesNotWritable(String)
        case tooManyUploads, tooManyPictures, tooManyFollowers(Int)
    }

    public var kind: Kind
    public var field: MarketField?
    public var reason: Reason
    /// Seconds after which the same request may succeed, for `throttled` and `unavailable`.
    public var retryAfter: Int?

    public init(_ kind: Kind, field: MarketField? = nil, _ reason: Reason, retryAfter: Int? = nil) {
        self.kind = kind
        self.field = field
        self.reason = reason
        self.retryAfter = retryAfter
    }

    public init(_ kind: Kind, field: MarketField, rule: Rule) { self.init(kind, field: field, .rule(rule)) }

    /// The message in English, the field named as `name` spells it.
    public func message(naming name: (MarketField) -> String) -> String {
        switch (reason, field) {
        case (.rule(let rule), let field?): "\(name(field)) \(rule.english)"
        case (.rule(let rule), nil): rule.english
        case (let reason, _): reason.english
        }
    }

    public var description: String { message(naming: \.description) }

    public static func invalid(_ error: ValidationError) -> MarketError {
        MarketError(.invalid, field: error.field, rule: error.rule)
    }

    public static func missing(_ field: MarketField) -> MarketError {
        MarketError(.invalid, field: field, rule: .required)
    }

    public static let wrongCredentials = MarketError(.unauthorized, field: .secret, .wrongCredentials)

    public static func productNotFound(_ id: Int64) -> MarketError { MarketError(.notFound, .noProduct(id)) }

    /// Said only to the product's own vendor, once their secret or sign-in is proven.
    public static func hiddenByOperator(_ productID: Int64) -> MarketError {
        MarketError(.notFound, .hiddenByOperator(productID))
    }

    public static func notOwner(_ productID: Int64) -> MarketError { MarketError(.forbidden, .notOwner(productID)) }

    public static func unavailable(_ reason: Reason, retryAfter: Int? = nil) -> MarketError {
        MarketError(.unavailable, reason, retryAfter: retryAfter)
    }

    public static func throttled(
        retryAfter seconds: Int, cause: ThrottleCause? = nil, failures: Int? = nil
    ) -> MarketError {
        MarketError(
            .throttled, field: .secret, .throttled(seconds: seconds, cause: cause, failures: failures),
            retryAfter: seconds)
    }

    public static let wrongProductSecret = MarketError(.invalid, field: .productSecret, rule: .deleteSecret)

    public static let sessionEnded = MarketError(.unauthorized, .sessionEnded)
}

extension MarketError.Reason {
    public var english: String {
        switch self {
        case .rule(let rule): rule.english
        case .noProduct(let id): "no product has the id \(id)"
        case .noProductCalled(let text): "no product has the id \"\(text)\""
        case .hiddenByOperator(let id): "product \(id) was hidden by the market's operator; ask them to show it again"
        case .notOwner(let id): "product \(id) belongs to another vendor"
        case .wrongCredentials: "the identifier and secret do not match a vendor"
        case .wrongItemPassword: "the password does not match this item"
        case .throttled(let seconds, _, _):
            "too many wrong secrets; try again in \(seconds) second\(seconds == 1 ? "" : "s")"
        case .sessionEnded: "this sign-in has ended (signed out, expired, or the secret has changed); sign in again"
        case .noVendor(let identifier): "no vendor has the identifier \(identifier)"
        case .noTeam(let id):
            "no team has the address \(TeamAddress.path(of: id)); `openmarket vendors list` shows each team's"
        case .vendorIDTaken(let id): "a vendor with the id \(id) exists already"
        case .vendorIdentifierTaken(let identifier): "a vendor with the identifier \(identifier) exists already"
        case .operatorTaken(let name): "an operator named \(name) exists already"
        case .noPage(let text): "no page \"\(text)\""
        case .noImage(let key): "no image is called \(key)"
        case .bodyTooLarge(let bytes): "the request body is larger than \(bytes) bytes"
        case .noBoundary(let boundary): "the multipart body never mentions its boundary \"\(boundary)\""
        case .lineBreaksReversed:
            "the multipart body's lines end in LF CR (\\n\\r); each line of a multipart body ends in CR LF (\\r\\n)"
        case .createTakesMultipart:
            "POST /api/products takes multipart/form-data with a params part and 1 to 5 images parts"
        case .itemsTakeMultipart: "items are sent as multipart/form-data"
        case .databaseUnreachable: "the market's database cannot be reached just now; try again in a moment"
        case .databaseReadOnly: "the market's database takes no writes (read-only)"
        case .notFaultsJSON:
            #"the body must be JSON such as {"latency_ms":800,"jitter_ms":400,"fail_percent":10,"status":503,"seed":7}"#
        case .imagesNotWritable(let why): "the image folder cannot be written to (\(why))"
        case .tooManyUploads: "the market is receiving too many uploads just now; try again in a moment"
        case .tooManyPictures: "the market is processing too many pictures just now; try again in a moment"
        case .tooManyFollowers(let count): "at most \(count) live inspectors follow one vendor at a time"
        }
    }
}

/// What stops a market from opening, a snapshot from being saved or restored, or a market from
/// moving: said to the person at the command line, in English.
public struct SetupError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
