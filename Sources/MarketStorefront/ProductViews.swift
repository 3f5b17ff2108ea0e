import Foundation
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketPages

/// Price and stock as every page shows them. Template views are classes: a struct this size would be
/// copied into a box of its own at every template look-up.
final class PriceTag {
    /// The list price; struck through when there is a discount.
    let price: String
    /// What a buyer pays, when it differs from the list price.
    let salePrice: String?
    let stock: String
    let soldOut: Bool

    init(currency: Currency, price: Int64, salePrice: Int64, stock: Int64, strings: Localization) {
        self.price = strings.money(price, currency)
        self.salePrice = salePrice < price ? strings.money(salePrice, currency) : nil
        soldOut = stock <= 0
        self.stock = soldOut ? strings("soldOut") : strings("inStock", ["count": Localization.grouped(stock)])
    }
}

/// A product's own page.
final class ProductSheet {
    final class Photo {
        typealias Copy = (key: String, width: Int, format: ImageFormat)

        let number: Int
        let count: Int
        let url: String
        let width: Int
        let height: Int
        let isFirst: Bool
        /// Smaller copies for smaller screens, in the photo's own format and in WebP; nil when the
        /// photo is no wider than the smallest.
        let srcset: String?
        let webpSrcset: String?
        /// "Photo 2 of 3 of Film camera", and the slide's "2 of 3".
        let alt: String
        let position: String
        let dotLabel: String

        /// Photo `number` of `count` of the product `name`, with `copies` made of it.
        init(
            number: Int, count: Int, url: String, width: Int, height: Int, copies: [Copy], name: String,
            strings: Localization
        ) {
            self.number = number
            self.count = count
            self.url = url
            self.width = width
            self.height = height
            isFirst = number == 1
            let own = copies.filter { $0.format != .webp }
            let webp = copies.filter { $0.format == .webp }
            srcset = own.isEmpty ? nil : Self.candidates(own) + ", \(url) \(width)w"
            webpSrcset = webp.isEmpty ? nil : Self.candidates(webp)
            let values = ["number": String(number), "count": String(count), "name": name]
            alt = strings("photoOf", values)
            position = strings("photoPosition", values)
            dotLabel = strings("photoNumber", values)
        }

        private static func candidates(_ copies: [Copy]) -> String {
            copies.map { "/images/\($0.key) \($0.width)w" }.joined(separator: ", ")
        }
    }

    let id: Int64
    let name: String
    let vendor: String
    /// Nil when there is none, so that no empty box shows.
    let description: String?
    let tag: PriceTag
    let photos: [Photo]
    let hasSeveralPhotos: Bool
    /// The visitor is signed in as the vendor who sells it, and may edit or delete it.
    let isOwner: Bool
    let carouselLabel: String
    let deleteQuestion: String

    init(_ product: Product, strings: Localization, isOwner: Bool = false) {
        id = product.id
        name = product.name
        vendor = product.vendor.name
        let description = Self.trimmed(product.description)
        self.description = description.isEmpty ? nil : description
        tag = PriceTag(
            currency: product.currency, price: product.price, salePrice: product.salePrice, stock: product.stock,
            strings: strings)
        let images: [(url: String, width: Int, height: Int, copies: [Photo.Copy])] =
            product.images.isEmpty
            ? [("/images/\(Placeholder.key)", 400, 400, [])]
            : product.images.map {
                ("/images/\($0.originalKey)", $0.width, $0.height, MarketService.variants(of: $0))
            }
        photos = images.enumerated().map { index, image in
            Photo(
                number: index + 1, count: images.count, url: image.url, width: image.width, height: image.height,
                copies: image.copies, name: product.name, strings: strings)
        }
        hasSeveralPhotos = photos.count > 1
        self.isOwner = isOwner
        carouselLabel = strings("photosOf", ["name": product.name])
        deleteQuestion = strings("deleteProduct", ["name": product.name])
    }

    /// Without white space at either end; checked first, as Foundation's trimming goes through NSString
    /// even when there is none.
    private static func trimmed(_ text: String) -> String {
        let spaces = CharacterSet.whitespacesAndNewlines
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            spaces.contains(first) || spaces.contains(last)
        else { return text }
        return text.trimmingCharacters(in: spaces)
    }
}
