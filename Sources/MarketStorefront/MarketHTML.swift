import Mustache

/// HTML escaping for the templates, as swift-mustache's own does it (`<`, `>`, `&`, `"` and `'`)
/// but over bytes: its own looks every character up in a dictionary, a seventh of a product page.
/// The five are ASCII and never part of a longer UTF-8 sequence, so replacing bytes is exact; and
/// one of them followed by a combining mark is escaped too, where the character-wise lookup let it
/// through whole.
struct MarketHTML: MustacheContentType {
    /// The pragma that makes a template use it; see `Pages`.
    static let pragma = "{{% CONTENT_TYPE: MARKET_HTML }}"

    static func register() {
        MustacheContentTypes.register(MarketHTML(), named: "MARKET_HTML")
    }

    func escapeText(_ text: String) -> String {
        guard text.utf8.contains(where: Self.isSpecial) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
