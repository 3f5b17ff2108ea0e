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
        try named(names) { MarketError(.invalid, field: .brokenKinds, rule: .brokenKindAmong($0, sent: $1)) }
    }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The cases these names say (trimmed, in any case), each once, in the order named; a name no case has is
    /// refused with every case's name and the name sent.
    static func named(
        _ names: [String], refusal: (_ names: [String], _ sent: String) -> MarketError
    ) throws(MarketError) -> [Self] {
        var found: [Self] = []
        for name in names {
            guard let value = Self(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw refusal(allCases.map(\.rawValue), name)
            }
            if !found.contains(where: { $0.rawValue == value.rawValue }) { found.append(value) }
        }
        return found
    }
}
