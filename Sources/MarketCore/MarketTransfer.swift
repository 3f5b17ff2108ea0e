import Foundation
import MarketModel

/// A product as a store keeps it, with what only the store sees: for moving a whole market from one
/// store to another with its ids, so that every URL and every id an app has cached stays valid.
public struct StoredProduct: Sendable, Equatable {
    public var product: Product
    /// The bcrypt hash of a 2021 item's own password.
    public var passwordHash: String?
    public var deleteTokens: [DeleteToken]
    /// An operator hid it.
    public var hidden: Bool

    public init(product: Product, passwordHash: String?, deleteTokens: [DeleteToken], hidden: Bool = false) {
        self.product = product
        self.passwordHash = passwordHash
        self.deleteTokens = deleteTokens
        self.hidden = hidden
    }
}

/// A delete secret as kept: its SHA-256 digest and when it was issued.
public struct DeleteToken: Sendable, Equatable {
    public var hash: String
    public var issuedAt: Date

    public init(hash: String, issuedAt: Date) {
        self.hash = hash
        self.issuedAt = issuedAt
    }
}

/// A storefront sign-in as kept: the digest of its token, whose it is and until when.
public struct StoredSession: Sendable, Equatable {
    public var tokenHash: String
    public var vendorID: Int64
    public var expiresAt: Date

    public init(tokenHash: String, vendorID: Int64, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.vendorID = vendorID
        self.expiresAt = expiresAt
    }
}

public protocol MarketExporting: Sendable {
    func exportVendors() async throws -> [StoredVendor]
    /// The sessions that have not expired by `now`.
    func exportSessions(at now: Date) async throws -> [StoredSession]
    func productCount() async throws -> Int
    /// Up to `limit` products with ids above `id`, in id order.
    func exportProducts(after id: Int64, limit: Int) async throws -> [StoredProduct]
    /// The highest ids ever given out, deleted rows included.
    func lastIDs() async throws -> LastIDs
}

/// The highest ids a store has given out. A copy gives out only higher ones, so an id an app
/// remembers from a deleted product never comes back as another product.
public struct LastIDs: Sendable, Equatable {
    public var vendor: Int64
    public var product: Int64
    public var image: Int64

    public init(vendor: Int64, product: Int64, image: Int64) {
        self.vendor = vendor
        self.product = product
        self.image = image
    }
}

/// A store a market can be copied into, ids and all.
public protocol MarketImporting: Sendable {
    /// Whether the store holds no vendor, no product and no image.
    func isEmpty() async throws -> Bool
    func importVendors(_ vendors: [StoredVendor]) async throws
    func importSessions(_ sessions: [StoredSession]) async throws
    /// In one transaction.
    func importProducts(_ products: [StoredProduct]) async throws
    /// Sets the store's id counters past `lastIDs` and the imported ids.
    func finishImport(lastIDs: LastIDs) async throws
    /// Removes whatever an import that failed or was stopped put in, so that the store is empty again.
    func discardImport() async throws
}
