import Foundation
import MarketModel

public protocol VendorStore: Sendable {
    /// Adds a vendor; fails with a `.conflict` MarketError when the identifier is taken.
    func insertVendor(_ vendor: NewVendor) async throws -> Vendor
    func vendorCredentials(identifier: String) async throws -> StoredVendor?
    func allVendors() async throws -> [Vendor]
    /// Makes the vendor a team of the class, once, seated after the teams before it; returns its seat.
    func markTeam(vendorID: Int64) async throws -> Int
    /// The team in `seat` (`Vendor.teamSeat`), or nil while no team has it.
    func team(inSeat seat: Int) async throws -> Vendor?
}

/// Where products, their image rows and their delete secrets are kept; every method is one transaction.
public protocol ProductStore: Sendable {
    func insertProduct(_ product: NewProduct) async throws -> Product
    func product(id: Int64, includingHidden: Bool) async throws -> Product?
    /// In the page's order, or the arrangement's when it is not `.asListed`. `search` is already
    /// lowercased; it matches name or description.
    func products(
        _ page: PageRequest, matching search: String?, arranged: ProductArrangement
    ) async throws -> Page<ProductSummary>
    /// One vendor's products on show, newest first.
    func products(_ page: PageRequest, ofVendor vendorID: Int64) async throws -> Page<ProductSummary>
    /// Who may change a product (hidden or not), or nil when there is no such product.
    func ownership(of productID: Int64) async throws -> ProductOwnership?
    /// Applies `change` to the product and saves the result atomically; `images`, when given, replace its images
    /// (the first becomes the cover). Returns the product before and after, or nil when there is no such product.
    func updateProduct(
        id: Int64, replacingImages images: [NewProductImage]?, _ change: @escaping @Sendable (Product) throws -> Product
    ) async throws -> (before: Product, after: Product)?
    /// Deletes the product; returns it as it was, or nil when absent.
    func deleteProduct(id: Int64) async throws -> Product?
    func insertDeleteToken(hash: String, productID: Int64, issuedAt: Date) async throws
    func productID(forDeleteToken hash: String) async throws -> Int64?
    func referencedImageKeys(among keys: [String]) async throws -> Set<String>
    func checkReachable() async throws
    /// Grows with every committed change to what a product's answer shows (products, images, vendors), by any server or
    /// tool: answers read after it may be reused while it stays the same. A change made here is in the next version;
    /// one made elsewhere, on PostgreSQL before it is answered, on SQLite within `SQLiteMarketStore.othersSeenWithin`.
    func catalogueVersion() async throws -> Int64
}

/// Where storefront sign-ins live, so that a sign-out ends a session on every server at once.
/// Sessions are kept by the SHA-256 of their token, never the token itself.
public protocol SessionStore: Sendable {
    /// Keeps a new session and forgets those that expired before `now`.
    func insertSession(tokenHash: String, vendorID: Int64, expiresAt: Date, now: Date) async throws
    /// The vendor whose session this is, or nil when it ended, expired or never was.
    func vendor(forSession tokenHash: String, at now: Date) async throws -> Vendor?
    func deleteSession(tokenHash: String) async throws
    /// Gives a vendor a new secret and ends all its sessions, atomically; false when no vendor has that identifier.
    func replaceSecret(ofVendor identifier: String, with secretHash: String) async throws -> Bool
}

/// Where wrong secrets are counted, shared by every server so that guessing is throttled across them all.
public protocol AttemptStore: Sendable {
    /// The failures counted under each of `keys` that has any since `since`.
    func failedAttempts(under keys: [String], since: Date) async throws -> [FailedAttempts]
    /// Counts one more failure under each key, starting again from one when its last failure was
    /// before `since`, and forgets keys that have had none since then.
    func recordFailedAttempt(under keys: [String], at date: Date, since: Date) async throws
    func clearFailedAttempts(under key: String) async throws
}

public struct FailedAttempts: Sendable, Equatable {
    public var key: String
    public var count: Int
    public var last: Date

    public init(key: String, count: Int, last: Date) {
        self.key = key
        self.count = count
        self.last = last
    }
}

/// What a learner rehearses with: the requests their app sent, as the inspector shows them, and
/// the failures they asked the market to stage for them.
public protocol RehearsalStore: Sendable {
    /// Keeps a vendor's request (`detail` is the inspector's, opaque here) and forgets all but their newest `keeping`.
    func appendRequestRecord(vendorID: Int64, at date: Date, detail: Data, keeping: Int) async throws
    /// A vendor's newest requests first; with `after`, only those kept since the one with that id.
    func requestRecords(vendorID: Int64, after: Int64?, limit: Int) async throws -> [StoredRequestRecord]
    /// Notes that a vendor's app first got through `step` (a name the inspector gives) at `date`,
    /// unless it had before: kept however many requests come after.
    func noteFirstStep(_ step: String, vendorID: Int64, at date: Date) async throws
    /// When a vendor's app first got through each step noted.
    func firstSteps(vendorID: Int64) async throws -> [String: Date]
    /// The faults a vendor has set (encoded `FaultSettings`), or nil.
    func faults(vendorID: Int64) async throws -> Data?
    func setFaults(_ faults: Data?, vendorID: Int64) async throws
    /// The faults the teacher set for every team of the class, or nil.
    func classFaults() async throws -> Data?
    func setClassFaults(_ faults: Data?) async throws
    func deleteProducts(vendorID: Int64) async throws -> Int
}

public struct StoredRequestRecord: Sendable, Equatable {
    public var id: Int64
    public var at: Date
    public var detail: Data

    public init(id: Int64, at: Date, detail: Data) {
        self.id = id
        self.at = at
        self.detail = detail
    }
}

/// Where the people who run a market are kept, with what each of them did.
public protocol OperatorStore: Sendable {
    /// Adds an operator; a `.conflict` MarketError when the name is taken.
    func insertOperator(name: String, secretHash: String, at date: Date) async throws
    func operatorSecretHash(name: String) async throws -> String?
    func recordOperatorAction(_ action: OperatorAction) async throws
    /// The newest first.
    func operatorActions(limit: Int) async throws -> [OperatorAction]
    /// Every vendor with how many products they have and when their last recorded request came.
    func vendorOverview() async throws -> [VendorOverview]
    /// Hides a product from every list and detail, or shows it again; its name, or nil when there is no such product.
    func setProductHidden(_ hidden: Bool, id: Int64) async throws -> String?
    func hiddenProducts() async throws -> [ProductLabel]
    /// Deletes every product of every vendor at once and numbers the next one 1 again, as in a new
    /// market; returns how many there were. Vendors, secrets and sign-ins stay.
    func deleteEveryProduct() async throws -> Int
}

/// A product as the operator's console names it: its number, its name and its seller's.
public struct ProductLabel: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var vendorName: String

    public init(id: Int64, name: String, vendorName: String) {
        self.id = id
        self.name = name
        self.vendorName = vendorName
    }
}

/// Something an operator did, as the console's log shows it.
public struct OperatorAction: Sendable, Equatable {
    public enum Act: Sendable, Equatable, Codable {
        case registeredVendor(name: String, id: Int64)
        case gaveNewSecret(identifier: String)
        case removedProduct(id: Int64, name: String, vendor: String)
        case hidProduct(id: Int64, name: String)
        case showedProduct(id: Int64, name: String)
        case emptiedMarket(products: Int)
        case filledMarket(products: Int)
        /// Faults every team of the class meets, or none again.
        case rehearsedForEveryTeam(FaultSettings)
        case endedRehearsalForEveryTeam
        /// An act stored as a plain sentence, as the log's older entries are.
        case said(String)
    }

    public var operatorName: String
    public var act: Act
    public var at: Date

    public init(operatorName: String, act: Act, at: Date) {
        self.operatorName = operatorName
        self.act = act
        self.at = at
    }

    /// From a store's text: the act as JSON, or a plain sentence for older entries.
    public init(operatorName: String, stored: String, at: Date) {
        let act = try? JSONDecoder().decode(Act.self, from: Data(stored.utf8))
        self.init(operatorName: operatorName, act: act ?? .said(stored), at: at)
    }

    public var stored: String { String(decoding: (try? JSONEncoder().encode(act)) ?? Data(), as: UTF8.self) }
}

public struct VendorOverview: Sendable, Equatable {
    public var vendor: Vendor
    /// The vendor's products buyers see.
    public var productCount: Int
    public var hiddenCount: Int
    public var allProductCount: Int { productCount + hiddenCount }
    public var lastRequestAt: Date?

    public init(vendor: Vendor, productCount: Int, hiddenCount: Int = 0, lastRequestAt: Date?) {
        self.vendor = vendor
        self.productCount = productCount
        self.hiddenCount = hiddenCount
        self.lastRequestAt = lastRequestAt
    }
}

public typealias MarketStore = ProductStore & VendorStore & SessionStore & AttemptStore & RehearsalStore & OperatorStore

public struct NewVendor: Sendable {
    /// The id to give the vendor, or nil for the next free one.
    public var id: Int64?
    public var identifier: String
    public var name: String
    public var secretHash: String
    public var createdAt: Date
    public var isTeam: Bool

    public init(
        id: Int64? = nil, identifier: String, name: String, secretHash: String, createdAt: Date, isTeam: Bool = false
    ) {
        self.id = id
        self.identifier = identifier
        self.name = name
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.isTeam = isTeam
    }
}

public struct StoredVendor: Sendable, Equatable {
    public var vendor: Vendor
    public var secretHash: String

    public init(vendor: Vendor, secretHash: String) {
        self.vendor = vendor
        self.secretHash = secretHash
    }
}

public struct NewProduct: Sendable {
    public var vendorID: Int64
    public var draft: ProductDraft
    public var images: [NewProductImage]
    /// The bcrypt hash of a 2021 item's own password.
    public var passwordHash: String?
    public var createdAt: Date

    public init(
        vendorID: Int64, draft: ProductDraft, images: [NewProductImage], passwordHash: String? = nil, createdAt: Date
    ) {
        self.vendorID = vendorID
        self.draft = draft
        self.images = images
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }

    /// What search matches against: name and description, lowercased once on the way in.
    public static func searchText(name: String, description: String) -> String {
        (name + "\n" + description).lowercased()
    }
}

public struct NewProductImage: Sendable {
    public var originalKey: String
    public var thumbnailKey: String
    public var width: Int
    public var height: Int

    public init(originalKey: String, thumbnailKey: String, width: Int, height: Int) {
        self.originalKey = originalKey
        self.thumbnailKey = thumbnailKey
        self.width = width
        self.height = height
    }
}

/// The secrets that prove the right to change one product: its vendor's, and for a 2021 item its own password.
public struct ProductOwnership: Sendable {
    public var vendorIdentifier: String
    public var vendorSecretHash: String
    public var passwordHash: String?
    /// Hidden by an operator: only its owner, once proven, is told so; to anyone else it is not there.
    public var hidden: Bool

    public init(vendorIdentifier: String, vendorSecretHash: String, passwordHash: String?, hidden: Bool = false) {
        self.vendorIdentifier = vendorIdentifier
        self.vendorSecretHash = vendorSecretHash
        self.passwordHash = passwordHash
        self.hidden = hidden
    }
}
