/// A field a request may get wrong. Each adapter spells it its own way (`discounted_price`, the 2021 API's `title`, a
/// form's "Discount", `--discount`), so rules and refusals name the field by this value, never by a spelling.
public enum MarketField: Hashable, Sendable, Codable, CustomStringConvertible {
    case name, description, price, discount, stock, currency
    case images
    /// The picture at this position (from 0) among those one request sent.
    case image(Int)
    /// Which of a product's pictures is its cover.
    case thumbnail
    case pageNumber, itemsPerPage
    case identifier, secret
    /// The secret that a 2022 delete asks for, issued for one product.
    case productSecret
    /// The settings of a rehearsed failure.
    case latency, jitter, failPercent, failStatus, dropPercent, slowBody, brokenPercent, brokenKinds, hardCases
    /// A part of the request named as the client sent it, when the request itself could not be
    /// read (a `params` part that is no JSON, a key holding text where a number belongs).
    case sent(String)

    /// Plain words, for logs and tests; every adapter has its own spelling.
    public var description: String { spellings.words }

    /// The 2022 API's spelling, which both the server and the kit speak.
    public var wireName: String { spellings.wire }

    private var spellings: (words: String, wire: String) {
        switch self {
        case .name: ("name", "name")
        case .description: ("description", "description")
        case .price: ("price", "price")
        case .discount: ("discount", "discounted_price")
        case .stock: ("stock", "stock")
        case .currency: ("currency", "currency")
        case .images: ("images", "images")
        case .image(let index): ("image \(index + 1)", "images[\(index)]")
        case .thumbnail: ("thumbnail", "thumbnail_id")
        case .pageNumber: ("page number", "page_no")
        case .itemsPerPage: ("items per page", "items_per_page")
        case .identifier: ("identifier", "identifier")
        case .secret: ("secret", "secret")
        case .productSecret: ("product secret", "product_secret")
        case .latency: ("latency", "latency_ms")
        case .jitter: ("jitter", "jitter_ms")
        case .failPercent: ("share of failures", "fail_percent")
        case .failStatus: ("failure status", "status")
        case .dropPercent: ("share of dropped connections", "drop_percent")
        case .slowBody: ("slow body", "slow_body_ms")
        case .brokenPercent: ("share of broken answers", "broken_percent")
        case .brokenKinds: ("kinds of broken answers", "broken")
        case .hardCases: ("hard cases", "hard_cases")
        case .sent(let name): (name, name)
        }
    }
}
