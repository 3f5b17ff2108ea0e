import Foundation

/// A product as the market shows it: facts, images in order and vendor; its facts read as its own (`product.price`).
@dynamicMemberLookup
public struct Product: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var vendor: VendorSummary
    public var facts: ProductDraft
    public var images: [ProductImage]
    /// The image shown in lists; one of `images`, or nil for a 2021 item posted without pictures.
    public var coverImageID: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64, vendor: VendorSummary, name: String, description: String, currency: Currency,
        price: Int64, discount: Int64, stock: Int64, zeroSalePriceSent: Bool = false, images: [ProductImage],
        coverImageID: Int64?, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.vendor = vendor
        facts = ProductDraft(
            name: name, description: description, currency: currency, price: price, discount: discount, stock: stock,
            zeroSalePriceSent: zeroSalePriceSent)
        self.images = images
        self.coverImageID = coverImageID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public subscript<Value>(dynamicMember fact: WritableKeyPath<ProductDraft, Value>) -> Value {
        get { facts[keyPath: fact] }
        set { facts[keyPath: fact] = newValue }
    }

    public subscript<Value>(dynamicMember fact: KeyPath<ProductDraft, Value>) -> Value { facts[keyPath: fact] }

    public var coverImage: ProductImage? { images.first { $0.id == coverImageID } ?? images.first }

    public var summary: ProductSummary {
        ProductSummary(
            id: id, vendor: vendor, facts: facts, thumbnailKey: coverImage?.thumbnailKey ?? "",
            thumbnailKeys: images.map(\.thumbnailKey), createdAt: createdAt)
    }
}

/// A product as a list shows it: no image list, only the cover's thumbnail.
@dynamicMemberLookup
public struct ProductSummary: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var vendor: VendorSummary
    public var facts: ProductDraft
    /// The cover's thumbnail; empty for a 2021 item posted without pictures.
    public var thumbnailKey: String
    /// Every image's thumbnail, in order.
    public var thumbnailKeys: [String]
    public var createdAt: Date

    public init(
        id: Int64, vendor: VendorSummary, facts: ProductDraft, thumbnailKey: String, thumbnailKeys: [String],
        createdAt: Date
    ) {
        self.id = id
        self.vendor = vendor
        self.facts = facts
        self.thumbnailKey = thumbnailKey
        self.thumbnailKeys = thumbnailKeys
        self.createdAt = createdAt
    }

    public init(
        id: Int64, vendor: VendorSummary, name: String, description: String, currency: Currency,
        price: Int64, discount: Int64, stock: Int64, zeroSalePriceSent: Bool = false, thumbnailKey: String,
        thumbnailKeys: [String], createdAt: Date
    ) {
        let facts = ProductDraft(
            name: name, description: description, currency: currency, price: price, discount: discount, stock: stock,
            zeroSalePriceSent: zeroSalePriceSent)
        self.init(
            id: id, vendor: vendor, facts: facts, thumbnailKey: thumbnailKey, thumbnailKeys: thumbnailKeys,
            createdAt: createdAt)
    }

    public subscript<Value>(dynamicMember fact: KeyPath<ProductDraft, Value>) -> Value { facts[keyPath: fact] }
}

/// One photo of a product. Keys name stored blobs (content hashes with an extension).
public struct ProductImage: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var originalKey: String
    public var thumbnailKey: String
    public var width: Int
    public var height: Int
    public var createdAt: Date

    public init(id: Int64, originalKey: String, thumbnailKey: String, width: Int, height: Int, createdAt: Date) {
        self.id = id
        self.originalKey = originalKey
        self.thumbnailKey = thumbnailKey
        self.width = width
        self.height = height
        self.createdAt = createdAt
    }
}
