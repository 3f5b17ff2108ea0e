import Foundation
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketPages

/// Price and stock as every page shows them.
struct PriceTag {
    let pays: String
    let stock: String
    /// What price.mustache reads: the list price (struck through when there is a discount), what a buyer
    /// pays when it differs from it, and the stock.
    let content: PageContent

    init(_ facts: ProductDraft, strings: Localization) {
        let listPrice = strings.money(facts.price, facts.currency)
        let sale = facts.salePrice < facts.price ? strings.money(facts.salePrice, facts.currency) : nil
        pays = sale ?? listPrice
        stock = facts.stock <= 0 ? strings("soldOut") : strings("inStock", ["count": Localization.grouped(facts.stock)])
        content = ["price": listPrice, "salePrice": sale, "stock": stock, "soldOut": facts.stock <= 0]
    }
}

/// A product's own page.
struct ProductSheet {
    typealias Copy = (key: String, width: Int, format: ImageFormat)
    typealias Image = (url: String, width: Int, height: Int, copies: [Copy])

    let tag: PriceTag
    /// The first photo's address, or the placeholder's.
    let firstPhoto: String
    let deleteQuestion: String
    /// What product.mustache, unlock.mustache and delete-form.mustache read.
    let content: PageContent

    init(_ product: Product, strings: Localization, isOwner: Bool = false) {
        tag = PriceTag(product.facts, strings: strings)
        let images: [Image] =
            product.images.isEmpty
            ? [("/images/\(Placeholder.key)", 400, 400, [])]
            : product.images.map { ("/images/\($0.originalKey)", $0.width, $0.height, MarketService.variants(of: $0)) }
        firstPhoto = images[0].url
        deleteQuestion = strings("deleteProduct", ["name": product.name])
        let description = Self.trimmed(product.description)
        content = [
            "id": product.id, "name": product.name, "vendor": product.vendor.name,
            // Nil when there is none, so that no empty box shows.
            "description": description.isEmpty ? nil : description,
            "tag": tag.content,
            "photos": images.enumerated().map { index, image in
                Self.photo(image, number: index + 1, count: images.count, of: product.name, strings: strings)
            },
            "hasSeveralPhotos": images.count > 1,
            "isOwner": isOwner,
            "carouselLabel": strings("photosOf", ["name": product.name]),
            "deleteQuestion": deleteQuestion,
        ]
    }

    /// `image` as photo `number` of `count` of the product `name`.
    private static func photo(
        _ image: Image, number: Int, count: Int, of name: String, strings: Localization
    ) -> PageContent {
        let (url, width, height, copies) = image
        func candidates(_ copies: [Copy]) -> String {
            copies.map { "/images/\($0.key) \($0.width)w" }.joined(separator: ", ")
        }
        let own = copies.filter { $0.format != .webp }
        let webp = copies.filter { $0.format == .webp }
        let values = ["number": String(number), "count": String(count), "name": name]
        return [
            "number": number, "count": count, "url": url, "width": width, "height": height, "isFirst": number == 1,
            // Smaller copies for smaller screens, in the photo's format and WebP; nil if no wider than the smallest.
            "srcset": own.isEmpty ? nil : candidates(own) + ", \(url) \(width)w",
            "webpSrcset": webp.isEmpty ? nil : candidates(webp),
            // "Photo 2 of 3 of Film camera", and the slide's "2 of 3".
            "alt": strings("photoOf", values), "position": strings("photoPosition", values),
            "dotLabel": strings("photoNumber", values),
        ]
    }

    /// Trimmed of white space; checked first, as Foundation's trimming goes through NSString even when there is none.
    private static func trimmed(_ text: String) -> String {
        let spaces = CharacterSet.whitespacesAndNewlines
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            spaces.contains(first) || spaces.contains(last)
        else { return text }
        return text.trimmingCharacters(in: spaces)
    }
}
