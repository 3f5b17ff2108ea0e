import Foundation

/// Why a call failed, with what the server said where it said something.
public enum OpenMarketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached, or the connection broke.
    case transport(String)
    /// The server answered with an error status; `message` and `field` are its own words.
    case http(status: Int, message: String, field: String?)
    /// The server's answer was not what the API describes.
    case decoding(String)
    /// The call changes the market and the client has no vendor credentials.
    case missingCredentials

    public var description: String {
        switch self {
        case .transport(let reason): "cannot reach the market: \(reason)"
        case .http(let status, let message, _): "the market said \(status): \(message)"
        case .decoding(let reason): "the market's answer could not be read: \(reason)"
        case .missingCredentials: "this needs a vendor identifier and secret"
        }
    }
}
