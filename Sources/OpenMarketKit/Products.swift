import Foundation
import MarketModel

/// A page of the catalogue, as the server lists it (newest first).
public struct ProductPage: Sendable, Equatable {
    public var number: Int
    public var itemsPerPage: Int
    public var totalCount: Int
    public var lastPage: Int
    public var hasNext: Bool
    public var products: [ProductListing]
}

/// A product in a list: what a list or grid cell shows.
public struct ProductListing: Sendable, Equatable, Identifiable {
    public var id: Int
    public var vendorID: Int
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
}

/// A product with its pictures in order and its vendor: what a detail screen shows.
public struct ProductDetails: Sendable, Equatable, Identifiable {
    public var listing: ProductListing
    public var images: [ProductPhoto]
    public var vendorName: String

    public var id: Int { listing.id }
}

public struct ProductPhoto: Sendable, Equatable, Identifiable {
    public var id: Int
    public var url: URL
    public var thumbnailURL: URL
}
