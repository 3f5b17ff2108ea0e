import Foundation
import MarketModel

/// The 2022 API's JSON read into the kit's values (and written back, for caches), in either flavour: snake_case or
/// camelCase envelope, dates with or without a fraction, prices as integers or as `2000.0`.
struct WireKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where K == WireKey {
    func value<T: Decodable>(_ type: T.Type, _ names: String...) throws -> T {
        for name in names where contains(WireKey(name)) { return try decode(T.self, forKey: WireKey(name)) }
        throw DecodingError.keyNotFound(
            WireKey(names[0]), .init(codingPath: codingPath, debugDescription: "no \(names.joined(separator: " or "))"))
    }

    func amount(_ name: String) throws -> Int64 {
        let number = try decode(Double.self, forKey: WireKey(name))
        guard let whole = Int64(exactly: number) else { throw corrupted(name, "\(number) is not a whole amount") }
        return whole
    }

    func url(_ name: String) throws -> URL {
        let text = try decode(String.self, forKey: WireKey(name))
        guard let url = URL(string: text) else { throw corrupted(name, "not a URL") }
        return url
    }

    /// `2022-05-14T00:00:00.00` or `2022-11-16T00:00:00`: the day is what counts.
    func day(_ name: String) throws -> Date {
        let text = try decode(String.self, forKey: WireKey(name))
        let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard parts.count == 3,
            let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
        else { throw corrupted(name, text) }
        return date
    }

    func corrupted(_ name: String, _ reason: String) -> DecodingError {
        .dataCorruptedError(forKey: WireKey(name), in: self, debugDescription: reason)
    }
}

extension Encoder {
    /// Writes each value under its name, in this order, into one `WireKey` container.
    func encode(wire values: KeyValuePairs<String, any Encodable>) throws {
        var json = container(keyedBy: WireKey.self)
        for (name, value) in values { try json.encode(value, forKey: WireKey(name)) }
    }
}

extension ProductPage: Codable {
    public init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: WireKey.self)
        self.init(
            number: try json.value(Int.self, "page_no", "pageNo"),
            itemsPerPage: try json.value(Int.self, "items_per_page", "itemsPerPage"),
            totalCount: try json.value(Int.self, "total_count", "totalCount"),
            lastPage: try json.value(Int.self, "last_page", "lastPage"),
            hasNext: try json.value(Bool.self, "has_next", "hasNext"),
            products: try json.value([ProductListing].self, "pages"))
    }

    public func encode(to encoder: any Encoder) throws {
        try encoder.encode(wire: [
            "page_no": number, "items_per_page": itemsPerPage, "total_count": totalCount, "last_page": lastPage,
            "has_next": hasNext, "pages": products,
        ])
    }
}

extension ProductListing: Codable {
    public init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: WireKey.self)
        let code = try json.value(String.self, "currency")
        guard let currency = Currency(code: code) else { throw json.corrupted("currency", code) }
        self.init(
            id: try json.value(Int64.self, "id"), vendorID: try json.value(Int64.self, "vendor_id"),
            name: try json.value(String.self, "name"),
            description: (try? json.value(String.self, "description")) ?? "",
            thumbnailURL: try json.url("thumbnail"), currency: currency, price: try json.amount("price"),
            discount: try json.amount("discounted_price"),
            stock: try json.amount("stock"), createdAt: try json.day("created_at"))
    }

    /// The API's own JSON, which `init(from:)` reads back.
    public func encode(to encoder: any Encoder) throws {
        let day = createdAt.formatted(.iso8601.year().month().day().dateSeparator(.dash))
        try encoder.encode(wire: [
            "id": id, "vendor_id": vendorID, "name": name, "description": description,
            "thumbnail": thumbnailURL.absoluteString, "currency": currency.rawValue, "price": price,
            "bargain_price": bargainPrice, "discounted_price": discount, "stock": stock,
            "created_at": "\(day)T00:00:00",
        ])
    }
}

extension ProductDetails: Codable {
    public init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: WireKey.self)
        let vendor = try json.nestedContainer(keyedBy: WireKey.self, forKey: WireKey("vendors"))
        self.init(
            listing: try ProductListing(from: decoder), images: try json.value([ProductPhoto].self, "images"),
            vendorName: try vendor.value(String.self, "name"))
    }

    public func encode(to encoder: any Encoder) throws {
        try listing.encode(to: encoder)
        var json = encoder.container(keyedBy: WireKey.self)
        try json.encode(images, forKey: WireKey("images"))
        var vendor = json.nestedContainer(keyedBy: WireKey.self, forKey: WireKey("vendors"))
        try vendor.encode(vendorName, forKey: WireKey("name"))
    }
}

extension ProductPhoto: Codable {
    public init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: WireKey.self)
        self.init(
            id: try json.value(Int64.self, "id"), url: try json.url("url"), thumbnailURL: try json.url("thumbnail_url"))
    }

    public func encode(to encoder: any Encoder) throws {
        try encoder.encode(wire: ["id": id, "url": url.absoluteString, "thumbnail_url": thumbnailURL.absoluteString])
    }
}

extension MarketField {
    /// The fields the kit reads back by name; a rehearsal's settings (`status`, `latency_ms`, …) are the inspector's.
    private static let known: [MarketField] = [
        .name, .description, .price, .discount, .stock, .currency, .images, .thumbnail, .pageNumber, .itemsPerPage,
        .identifier, .secret, .productSecret,
    ]

    /// The field a 2022 answer names (`discounted_price`, `images[2]`, …); an unknown name stays as it was sent.
    init(wireName name: String) {
        if let field = Self.known.first(where: { $0.wireName == name }) {
            self = field
        } else if name.hasPrefix("images["), name.hasSuffix("]"), let index = Int(name.dropFirst(7).dropLast()) {
            self = .image(index)
        } else {
            self = .sent(name)
        }
    }
}
