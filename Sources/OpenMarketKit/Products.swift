import Foundation
import MarketModel

/// A page of the catalogue, as the server lists it (newest first).
public struct ProductPage: Sendable, Hashable {
    public var number: Int
    public var itemsPerPage: Int
    public var totalCount: Int
    public var lastPage: Int
    public var hasNext: Bool
    public var products: [ProductListing]

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
    public var id: Int64
    public var vendorID: Int64
    public var name: String
    public var description: String
    public var thumbnailURL: URL
    public var currency: Currency
    /// The list price, in whole units of `currency`.
    public var price: Int64
    /// What the buyer pays: `price` less the discount.
    public var bargainPrice: Int64
    /// How much is taken off `price`.
    public var discount: Int64
    public var stock: Int64
    /// The day it was listed.
    public var createdAt: Date

    public var isDiscounted: Bool { discount > 0 }
    public var isSoldOut: Bool { stock == 0 }

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
    public var listing: ProductListing
    public var images: [ProductPhoto]
    public var vendorName: String

    public var id: Int64 { listing.id }

    public init(listing: ProductListing, images: [ProductPhoto], vendorName: String) {
        self.listing = listing
        self.images = images
        self.vendorName = vendorName
    }
}

public struct ProductPhoto: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var url: URL
    public var thumbnailURL: URL

    public init(id: Int64, url: URL, thumbnailURL: URL) {
        self.id = id
        self.url = url
        self.thumbnailURL = thumbnailURL
    }
}
