import Foundation
import MarketModel

/// The storefront's words in one language, read from `words/<language>.json`. A template names a
/// phrase as `{{w.key}}`; Swift fills a phrase's `{placeholders}` with `words("key", ["name": …])`.
struct Words: Sendable, TemplateObject {
    let language: Language
    private let phrases: [String: String]

    init(language: Language, phrases: [String: String]) {
        self.language = language
        self.phrases = phrases
    }

    static func load(from folder: URL) throws -> [Language: Words] {
        var books: [Language: Words] = [:]
        for language in Language.allCases {
            let data = try Data(contentsOf: folder.appendingPathComponent("\(language.rawValue).json"))
            books[language] = Words(
                language: language, phrases: try JSONDecoder().decode([String: String].self, from: data))
        }
        return books
    }

    func value(named key: String) -> TemplateValue? { phrases[key].map(TemplateValue.text) }

    /// The phrase `key` with each `{name}` replaced by its value; the key itself when it is missing,
    /// which a test of the phrase books catches.
    func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        let phrase = phrases[key] ?? key
        guard !values.isEmpty else { return phrase }
        var said = ""
        var rest = phrase[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            said += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            said += values[name] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return said + rest
    }

    /// Every phrase's key.
    var keys: Set<String> { Set(phrases.keys) }

    /// A count of products: "1 product", "12 products", "12개".
    func products(_ count: Int) -> String {
        count == 1 ? self("oneProduct") : self("products", ["count": Self.grouped(Int64(count))])
    }

    /// A number with its thousands grouped: 1,234,567.
    static func grouped(_ number: Int64) -> String {
        let digits = String(number.magnitude)
        var grouped = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped
    }

    /// An amount as people here read it: 12,000원 in Korean, ₩12,000 in English; US$4 in both.
    func money(_ amount: Int64, _ currency: Currency) -> String {
        let number = Self.grouped(amount)
        switch (currency, language) {
        case (.krw, .ko): return "\(number)원"
        case (.krw, .en): return "₩\(number)"
        case (.usd, _): return "US$\(number)"
        }
    }

    /// Bytes as megabytes with one decimal: 14.6.
    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
