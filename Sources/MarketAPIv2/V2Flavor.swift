import Foundation
import MarketHTTPShared

/// The two hosts of the 2022 API differed in their JSON (API reference §3.1): market-training
/// (Jan–Jul 2022) and openmarket (Nov–Dec 2022). Their date formats cannot both be met by one
/// answer, so each request is answered in the flavour of the host it names.
public enum V2Flavor: String, Sendable, CaseIterable {
    case marketTraining = "market-training"
    case openmarket

    /// The flavour for a request's Host header: `openmarket.…` and `market-training.…` pick theirs,
    /// any other host gets `fallback`.
    public static func forHost(_ host: String?, fallback: V2Flavor) -> V2Flavor {
        let name = (host ?? "").lowercased()
        if name.hasPrefix("openmarket.") { return .openmarket }
        if name.hasPrefix("market-training.") { return .marketTraining }
        return fallback
    }

    /// `snake` on market-training, `camel` on openmarket: the list envelope's key spelling.
    func key(_ snake: String, _ camel: String) -> String {
        self == .openmarket ? camel : snake
    }

    /// A day as the flavour's clients parse it: always midnight; two fraction digits on
    /// market-training, none on openmarket.
    func day(_ date: Date) -> String {
        V2Dates.day(date) + (self == .marketTraining ? ".00" : "")
    }

    /// The text `/archived` answers: a path to DELETE. openmarket clients either use it whole or
    /// keep what follows the last slash, and `/api/products/{secret}` serves both.
    func deletePath(productID: Int64, secret: String) -> String {
        self == .openmarket ? "/api/products/\(secret)" : "/api/products/\(productID)/\(secret)"
    }
}
