import MarketCore
import MarketHTTPShared
import MarketModel

/// Price and stock as every page shows them.
struct PriceTag {
    /// The list price; struck through when there is a discount.
    var price: String
    /// What a buyer pays, when it differs from the list price.
    var salePrice: String?
    var stock: String
    var soldOut: Bool

    init(currency: Currency, price: Int64, salePrice: Int64, stock: Int64, words: Words) {
        self.price = words.money(price, currency)
        self.salePrice = salePrice < price ? words.money(salePrice, currency) : nil
        soldOut = stock <= 0
        self.stock = soldOut ? words("soldOut") : words("inStock", ["count": Words.grouped(stock)])
    }
}

/// A product in the catalogue. Its thumbnail says nothing the link's text does not: the name is read once.
struct ProductCard {
    var id: Int64
    var name: String
    var thumbnail: String
    var tag: PriceTag

    init(_ product: ProductSummary, words: Words) {
        id = product.id
        name = product.name
        thumbnail = "/images/\(product.thumbnailKey.isEmpty ? Placeholder.key : product.thumbnailKey)"
        tag = PriceTag(
            currency: product.currency, price: product.price, salePrice: product.salePrice, stock: product.stock,
            words: words)
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
        /// Smaller copies for smaller screens, in the photo's own format and in WebP; nil when the
        /// photo is no wider than the smallest.
        var srcset: String?
        var webpSrcset: String?
        /// "Photo 2 of 3 of Film camera", and the slide's "2 of 3".
        var alt: String
        var position: String
        var dotLabel: String
    }

    var id: Int64
    var name: String
    var vendor: String
    /// Nil when there is none, so that no empty box shows.
    var description: String?
    var tag: PriceTag
    var photos: [Photo]
    var hasSeveralPhotos: Bool
    /// The visitor is signed in as the vendor who sells it, and may edit or delete it.
    var isOwner: Bool
    var carouselLabel: String
    var deleteQuestion: String

    init(_ product: Product, words: Words, isOwner: Bool = false) {
        id = product.id
        name = product.name
        vendor = product.vendor.name
        let description = product.description.trimmingCharacters(in: .whitespacesAndNewlines)
        self.description = description.isEmpty ? nil : description
        tag = PriceTag(
            currency: product.currency, price: product.price, salePrice: product.salePrice, stock: product.stock,
            words: words)
        typealias Copy = (key: String, width: Int, format: ImageFormat)
        let images: [(url: String, width: Int, height: Int, copies: [Copy])] =
            product.images.isEmpty
            ? [("/images/\(Placeholder.key)", 400, 400, [])]
            : product.images.map {
                ("/images/\($0.originalKey)", $0.width, $0.height, MarketService.variants(of: $0))
            }
        photos = images.enumerated().map { index, image in
            let values = ["number": String(index + 1), "count": String(images.count), "name": product.name]
            func candidates(_ copies: [Copy]) -> [String] {
                copies.map { "/images/\($0.key) \($0.width)w" }
            }
            let webp = image.copies.filter { $0.format == .webp }
            let own = image.copies.filter { $0.format != .webp }
            return Photo(
                number: index + 1, count: images.count, url: image.url, width: image.width, height: image.height,
                isFirst: index == 0,
                srcset: own.isEmpty
                    ? nil : (candidates(own) + ["\(image.url) \(image.width)w"]).joined(separator: ", "),
                webpSrcset: webp.isEmpty ? nil : candidates(webp).joined(separator: ", "),
                alt: words("photoOf", values), position: words("photoPosition", values),
                dotLabel: words("photoNumber", values))
        }
        hasSeveralPhotos = photos.count > 1
        self.isOwner = isOwner
        carouselLabel = words("photosOf", ["name": product.name])
        deleteQuestion = words("deleteProduct", ["name": product.name])
    }
}
