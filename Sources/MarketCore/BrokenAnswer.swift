import Foundation
import MarketModel

/// A way an answer arrives broken, as real servers and proxies do, for an app to rehearse decoding the unexpected.
public enum BrokenAnswer: String, CaseIterable, Codable, Sendable {
    /// The JSON stops halfway.
    case truncated
    /// A key the app needs is left out.
    case missingKey = "missing_key"
    case null
    /// A number comes as text: `"price": "1200"`.
    case numberAsText = "number_as_text"
    /// A currency the app's enum does not know.
    case unknownCurrency = "unknown_currency"
    case extraKey = "extra_key"
    /// A date in another format than the dialect's.
    case otherDate = "other_date"
    /// A 200 whose body is empty.
    case emptyBody = "empty_body"
    /// An HTML error page, as a proxy in front of a server sends when the server is away.
    case proxyPage = "proxy_page"

    /// The kinds these names say, each once, in the order named.
    public static func named(_ names: [String]) throws(MarketError) -> [BrokenAnswer] {
        var kinds: [BrokenAnswer] = []
        for name in names {
            guard let kind = BrokenAnswer(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw MarketError(
                    .invalid, field: .brokenKinds, rule: .brokenKindAmong(allCases.map(\.rawValue), sent: name))
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds
    }
}
