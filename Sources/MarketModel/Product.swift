import Foundation

/// A product as the market shows it: its facts, its images in order and its vendor.
public struct Product: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var vendor: VendorSummary
    public var name: String
    public var description: String
    public var currency: Currency
    /// The list price in whole units of `currency`.
    public var price: Int64
    /// How much is taken off `price`; 0 when there is no discount.
    public var discount: Int64
    public var stock: Int64
    public var images: [ProductImage]
    /// The image shown in lists; one of `images`, or nil for a 2021 item posted without pictures.
    public var coverImageID: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64, vendor: VendorSummary, name: String, description: String, currency: Currency,
        price: Int64, discount: Int64, stock: Int64, images: [ProductImage], coverImageID: Int64?,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.vendor = vendor
        self.name = name
        self.description = description
        self.currency = currency
        self.price = price
        self.discount = discount
        self.stock = stock
        self.images = images
        self.coverImageID = coverImageID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// What a buyer pays.
    public var salePrice: Int64 { price - discount }

    public var coverImage: ProductImage? {
        images.first { $0.id == coverImageID } ?? images.first
    }

    public var summary: ProductSummary {
        ProductSummary(
            id: id, vendor: vendor, name: name, description: description, currency: currency,
            price: price, discount: discount, stock: stock, thumbnailKey: coverImage?.thumbnailKey ?? "",
            thumbnailKeys: images.map(\.thumbnailKey), createdAt: createdAt)
    }
}

/// A product as a list shows it: no image list, only the cover's thumbnail.
public struct ProductSummary: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var vendor: VendorSummary
    public var name: String
    public var description: String
    public var currency: Currency
    public var price: Int64
    public var discount: Int64
    public var stock: Int64
    /// The cover's thumbnail; empty for a 2021 item posted without pictures.
    public var thumbnailKey: String
    /// Every image's thumbnail, in order.
    public var thumbnailKeys: [String]
    public var createdAt: Date

    public init(
        id: Int64, vendor: VendorSummary, name: String, description: String, currency: Currency,
        price: Int64, discount: Int64, stock: Int64, thumbnailKey: String, thumbnailKeys: [String], createdAt: Date
    ) {
        self.id = id
        self.vendor = vendor
        self.name = name
        self.description = description
        self.currency = currency
        self.price = price
        self.discount = discount
        self.stock = stock
        self.thumbnailKey = thumbnailKey
        self.thumbnailKeys = thumbnailKeys
        self.createdAt = createdAt
    }

    public var salePrice: Int64 { price - discount }
}

/// One photo of a product. Keys name stored blobs (content hashes with an extension).
public struct ProductImage: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var originalKey: String
    public var thumbnailKey: String
    public var width: Int
    public var height: Int
    public var createdAt: Date

    public init(
        id: Int64, originalKey: String, thumbnailKey: String, width: Int, height: Int, createdAt: Date
    ) {
        self.id = id
        self.originalKey = originalKey
        self.thumbnailKey = thumbnailKey
        self.width = width
        self.height = height
        self.createdAt = createdAt
    }
}
