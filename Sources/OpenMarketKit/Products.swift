import Foundation
import MarketModel

/// A page of the catalogue, as the server lists it (newest first).
public struct ProductPage: Sendable, Hashable {
    /// The page's number, from 1.
    public var number: Int
    /// How many products a page holds.
    public var itemsPerPage: Int
    /// How many products the whole list holds.
    public var totalCount: Int
    /// The number of the last page.
    public var lastPage: Int
    /// Whether a page follows this one.
    public var hasNext: Bool
    /// The page's products, in the list's order.
    public var products: [ProductListing]

    /// A page as an app's previews and tests make one.
    public init(
        number: Int, itemsPerPage: Int, totalCount: Int, lastPage: Int, hasNext: Bool, products: [ProductListing]
    ) {
        self.number = number
        self.itemsPerPage = itemsPerPage
        self.totalCount = totalCount
        self.lastPage = lastPage
        self.hasNext = hasNext
        self.products = products
    }
}

/// A product in a list: what a list or grid cell shows. Hashable for `NavigationLink(value:)`,
/// Codable (in the API's own JSON) for an offline cache, and made by hand for previews and fixtures.
public struct ProductListing: Sendable, Hashable, Identifiable {
    /// The product's id, which every address of it names.
    public var id: Int64
    /// The `vendor_id` of the vendor who sells it.
    public var vendorID: Int64
    /// The product's name.
    public var name: String
    /// The product's description; line breaks are kept.
    public var description: String
    /// The cover picture's thumbnail, for a row or a card.
    public var thumbnailURL: URL
    /// The currency of every amount of the product.
    public var currency: Currency
    /// The list price, in whole units of `currency`.
    public var price: Int64
    /// What the buyer pays: `price` less the discount.
    public var bargainPrice: Int64
    /// How much is taken off `price`.
    public var discount: Int64
    /// How many are left; 0 is sold out.
    public var stock: Int64
    /// The day it was listed.
    public var createdAt: Date

    /// Whether the buyer pays less than the price.
    public var isDiscounted: Bool { discount > 0 }
    /// Whether none are left.
    public var isSoldOut: Bool { stock == 0 }

    /// A product as an app's previews and tests make one.
    public init(
        id: Int64, vendorID: Int64, name: String, description: String, thumbnailURL: URL, currency: Currency,
        price: Int64, discount: Int64 = 0, stock: Int64, createdAt: Date
    ) {
        self.id = id
        self.vendorID = vendorID
        self.name = name
        self.description = description
        self.thumbnailURL = thumbnailURL
        self.currency = currency
        self.price = price
        self.bargainPrice = price - discount
        self.discount = discount
        self.stock = stock
        self.createdAt = createdAt
    }
}

/// A product with its pictures in order and its vendor: what a detail screen shows.
public struct ProductDetails: Sendable, Hashable, Identifiable {
    /// What a list shows of the product.
    public var listing: ProductListing
    /// Its pictures in order, the cover first.
    public var images: [ProductPhoto]
    /// The name of the vendor who sells it.
    public var vendorName: String

    /// The product's id.
    public var id: Int64 { listing.id }

    /// A product as an app's previews and tests make one.
    public init(listing: ProductListing, images: [ProductPhoto], vendorName: String) {
        self.listing = listing
        self.images = images
        self.vendorName = vendorName
    }
}

/// One of a product's pictures: the whole (at most 2048 px on its long edge) and its thumbnail (at most 400 px).
public struct ProductPhoto: Sendable, Hashable, Identifiable {
    /// The picture's id, which a `ProductChanges.coverImageID` names to make it the cover.
    public var id: Int64
    /// The whole picture.
    public var url: URL
    /// The picture's thumbnail.
    public var thumbnailURL: URL

    /// A picture as an app's previews and tests make one.
    public init(id: Int64, url: URL, thumbnailURL: URL) {
        self.id = id
        self.url = url
        self.thumbnailURL = thumbnailURL
    }
}
