import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a call failed, in the server's words where it gave some. Switch on `kind`; show `localizedDescription`.
public enum OpenMarketError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// The device has no network (or lost it during the call).
    case offline
    /// The market's address does not answer: a wrong base URL, or the server is not running.
    case unreachable(String)
    /// The market took too long to answer.
    case timedOut
    /// The connection failed some other way.
    case transport(String)
    /// The server answered with an error status; `message` and `field` are its own words.
    case http(status: Int, message: String, field: MarketField?)
    /// The server's answer was not what the API describes.
    case decoding(String)
    /// The call changes the market and the client has no vendor credentials.
    case missingCredentials

    /// What went wrong, as an app decides what to do about it.
    public enum Kind: Sendable, Equatable {
        /// The device has no network.
        case offline
        /// No market answers at the address.
        case unreachable
        /// No answer came within the client's timeout.
        case timedOut
        /// The identifier and secret (or password) are wrong, or missing.
        case unauthorized
        /// The product belongs to another vendor.
        case forbidden
        /// No such product.
        case notFound
        /// A field breaks the market's rules; `field` names it when the server did.
        case invalid(field: MarketField?)
        /// Too many wrong secrets lately; try again later.
        case throttled
        /// The server failed or is overloaded; try again later.
        case server
        /// Anything else: a broken connection, an answer that could not be read.
        case other
    }

    /// The meaning of a URLSession failure.
    public init(_ error: URLError) {
        switch error.code {
        case .notConnectedToInternet, .networkConnectionLost, .dataNotAllowed, .internationalRoamingOff: self = .offline
        case .timedOut: self = .timedOut
        case .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed: self = .unreachable(error.localizedDescription)
        default: self = .transport(error.localizedDescription)
        }
    }

    /// What went wrong, for an app to switch on.
    public var kind: Kind {
        switch self {
        case .offline: .offline
        case .unreachable: .unreachable
        case .timedOut: .timedOut
        case .missingCredentials: .unauthorized
        case .transport, .decoding: .other
        case .http(let status, _, let field):
            switch status {
            case 401: .unauthorized
            case 403: .forbidden
            case 404: .notFound
            case 400, 413, 422: .invalid(field: field)
            case 429: .throttled
            case 500...: .server
            default: .other
            }
        }
    }

    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .offline: "This device is offline. Check the connection and try again."
        case .unreachable(let reason):
            "The market does not answer (\(reason)). Check its address and that it is running."
        case .timedOut: "The market took too long to answer. Try again in a moment."
        case .transport(let reason): "Cannot reach the market: \(reason)"
        case .http(let status, let message, _): "The market said \(status): \(message)"
        case .decoding(let reason): "The market's answer could not be read: \(reason)"
        case .missingCredentials: "This needs a vendor identifier and secret."
        }
    }
}
