import MarketHTTPShared

/// The languages the storefront speaks; Korean is the default, as most shoppers and apps here are Korean.
package enum Language: String, CaseIterable, Sendable {
    case ko, en

    /// The first of ours an `Accept-Language` header prefers (by q-value, then order); Korean when it names neither.
    package static func preferred(by acceptLanguage: String?) -> Language {
        var best: (language: Language, weight: Double)?
        for (tag, weight) in weightedChoices(acceptLanguage) {
            guard let language = Language(rawValue: String(tag.prefix { $0 != "-" })) else { continue }
            if weight > 0, weight > best?.weight ?? 0 { best = (language, weight) }
        }
        return best?.language ?? .ko
    }

    /// The language's own name, as its link in the switch shows it.
    var name: String {
        switch self {
        case .ko: "한국어"
        case .en: "English"
        }
    }
}
