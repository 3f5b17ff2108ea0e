import MarketHTTPShared
import MarketModel

/// How the storefront writes an amount: the currency code, then the number with thousands grouped.
enum Money {
    static func text(_ amount: Int64, _ currency: Currency) -> String {
        let digits = String(amount.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return "\(currency.rawValue) \(amount < 0 ? "-" : "")\(grouped)"
    }
}

/// Price and stock as every page shows them.
struct PriceTag {
    /// The list price; struck through when there is a discount.
    var price: String
    /// What a buyer pays, when it differs from the list price.
    var salePrice: String?
    var stock: String
    var soldOut: Bool

    init(currency: Currency, price: Int64, salePrice: Int64, stock: Int64) {
        self.price = Money.text(price, currency)
        self.salePrice = salePrice < price ? Money.text(salePrice, currency) : nil
        soldOut = stock <= 0
        self.stock = soldOut ? "Sold out" : "Stock: \(stock)"
    }
}

/// A product in the catalogue.
struct ProductCard {
    var id: Int64
    var name: String
    var thumbnail: String
    var tag: PriceTag

    init(_ product: ProductSummary) {
        id = product.id
        name = product.name
        thumbnail = "/images/\(product.thumbnailKey.isEmpty ? Placeholder.key : product.thumbnailKey)"
        tag = PriceTag(
            currency: product.currency, price: product.price, salePrice: product.salePrice, stock: product.stock)
    }
}

/// A product's own page.
struct ProductSheet {
    struct Photo {
        var number: Int
        var count: Int
        var url: String
        var width: Int
        var height: Int
        var isFirst: Bool
    }

    var id: Int64
    var name: String
    var vendor: String
    var description: String
    var tag: PriceTag
    var photos: [Photo]
    var hasSeveralPhotos: Bool

    init(_ product: Product) {
        id = product.id
        name = product.name
        vendor = product.vendor.name
        description = product.description
        tag = PriceTag(
            currency: product.currency, price: product.price, salePrice: product.salePrice, stock: product.stock)
        let images = product.images
        photos =
            images.isEmpty
            ? [Photo(number: 1, count: 1, url: "/images/\(Placeholder.key)", width: 400, height: 400, isFirst: true)]
            : images.enumerated().map { index, image in
                Photo(
                    number: index + 1, count: images.count, url: "/images/\(image.originalKey)", width: image.width,
                    height: image.height, isFirst: index == 0)
            }
        hasSeveralPhotos = photos.count > 1
    }
}
