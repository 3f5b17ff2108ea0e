import Foundation
import MarketHTTPShared
import MarketModel

/// An item in the 2021 API's JSON (API reference §2.2). `discounted_price` is what the buyer pays
/// and is left out when there is no discount, unless the app sent it as 0 to say so; `registration_date` is Unix
/// seconds with a fraction.
struct V1ItemBody: Encodable {
    var summary: ProductSummary
    var product: Product?
    var urls: ImageURLs

    private enum CodingKeys: String, CodingKey {
        case id, title, price, currency, stock, thumbnails, descriptions, images
        case discountedPrice = "discounted_price", registrationDate = "registration_date"
    }

    func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: CodingKeys.self)
        try json.encode(summary.id, forKey: .id)
        try json.encode(summary.name, forKey: .title)
        try json.encode(summary.price, forKey: .price)
        try json.encode(summary.currency.rawValue, forKey: .currency)
        try json.encode(summary.stock, forKey: .stock)
        if summary.zeroSalePriceSent {
            try json.encode(0, forKey: .discountedPrice)
        } else if summary.discount > 0 {
            try json.encode(summary.salePrice, forKey: .discountedPrice)
        }
        let thumbnails = summary.thumbnailKeys.map(urls.url(for:))
        try json.encode(thumbnails.isEmpty ? [urls.thumbnail(for: "")] : thumbnails, forKey: .thumbnails)
        try json.encode(summary.createdAt.timeIntervalSince1970, forKey: .registrationDate)
        guard let product else { return }
        try json.encode(product.description, forKey: .descriptions)
        try json.encode(product.images.map { urls.url(for: $0.originalKey) }, forKey: .images)
    }
}

/// A page of the 2021 list: its number and its items, and nothing else.
struct V1PageBody: Encodable {
    var page: Page<ProductSummary>
    var urls: ImageURLs

    private enum CodingKeys: String, CodingKey { case page, items }

    func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: CodingKeys.self)
        try json.encode(page.request.number, forKey: .page)
        try json.encode(page.items.map { V1ItemBody(summary: $0, urls: urls) }, forKey: .items)
    }
}

/// The 2021 API's field names: a name is a `title`, a description `descriptions`, and the secret an item's `password`.
enum V1FieldNames {
    @Sendable static func name(of field: MarketField) -> String {
        switch field {
        case .name: "title"
        case .description: "descriptions"
        case .secret, .productSecret: "password"
        default: field.wireName
        }
    }
}
