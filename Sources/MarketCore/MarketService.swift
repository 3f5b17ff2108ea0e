import Foundation
import MarketModel
import Synchronization

/// Every rule of the market in one place. The API dialects and the storefront only translate their
/// wire formats into calls on this service and its answers back.
public struct MarketService: Sendable {
    let store: any MarketStore
    let images: any ImageStore
    let imageProcessor: any ImageProcessor
    let hasher: SecretHasher
    /// When on, an unknown identifier presented with a secret becomes a vendor on first use.
    let openRegistration: Bool
    /// How wrong secrets are let through and waited for, which the operator's console shows.
    public let secretThrottle: SecretThrottle
    let now: @Sendable () -> Date
    /// Every picture decoded or encoded for this market's requests goes through these slots.
    let imageWork = ImageWork()
    /// Vendors found by identifier: they are never removed, so one found once is remembered.
    let knownVendors = KnownVendors()
    /// Wrong secrets counted lately, by throttle key: the same one sent again is not counted again.
    let wrongSecrets = SecretMemory(lifetime: SecretThrottle.memory, capacity: 65_536)

    public init(
        store: any MarketStore, images: any ImageStore, imageProcessor: any ImageProcessor,
        hasher: SecretHasher = SecretHasher(), openRegistration: Bool = false,
        secretThrottle: SecretThrottle = SecretThrottle(), now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.images = images
        self.imageProcessor = imageProcessor
        self.hasher = hasher
        self.openRegistration = openRegistration
        self.secretThrottle = secretThrottle
        self.now = now
    }

    // MARK: Browsing

    /// The catalogue's version as read after this call began: an answer read after it reflects at
    /// least this version, so it may be given again while the version stays the same.
    public func catalogueVersion() async throws -> Int64 { try await store.catalogueVersion() }

    /// A page of the products on show, matching `search` where given, arranged as a shopper chose.
    /// Relevance without a search is newest first; a cursor counts only in an order by age. A team `rehearsing` hard
    /// cases gets a page of their catalogue instead, newest or oldest first as `page` asks.
    public func products(
        _ page: PageRequest, search: String? = nil, arranged: ProductArrangement = .asListed,
        rehearsing rehearsal: CatalogueRehearsal? = nil
    ) async throws -> Page<ProductSummary> {
        // A search text is matched lowercased and without surrounding spaces; an empty one is no search.
        let term = search?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() ?? ""
        var arrangement = arranged
        if term.isEmpty, arrangement.order == .relevance { arrangement.order = .newest }
        var page = try validated(page.validated())
        if !arrangement.isByAge { page.after = nil }
        // Names and descriptions hold no control character but line breaks and tabs, so nothing matches.
        if MarketRules.firstControlCharacter(in: term, allowing: MarketRules.lineBreaksAndTabs) != nil {
            return Page(request: page, totalCount: 0, items: [])
        }
        if let rehearsal { return try await products(page, search: term, rehearsing: rehearsal) }
        return try await store.products(page, matching: term.isEmpty ? nil : term, arranged: arrangement)
    }

    public static let suggestionCount = 8

    /// The names of products that match what a person has typed so far, the best matches first, each once.
    public func suggestedNames(for typed: String) async throws -> [String] {
        let page = PageRequest(number: 1, itemsPerPage: Self.suggestionCount * 2)
        var names: [String] = []
        for item in try await products(page, search: typed, arranged: ProductArrangement(order: .relevance)).items
        where names.count < Self.suggestionCount && !names.contains(item.name) { names.append(item.name) }
        return names
    }

    /// The product `id` as `reader` may see it: a product on show, or `productNotFound`; to its
    /// signed-in vendor, `hiddenByOperator` when an operator hid it; to whoever would change it,
    /// only when their proof holds; to an operator, hidden or not. A team `rehearsing` hard cases reads their catalogue.
    public func product(
        id: Int64, for reader: ProductReader = .anyone, rehearsing rehearsal: CatalogueRehearsal? = nil
    ) async throws -> Product {
        if let rehearsal { return try await product(id: id, rehearsing: rehearsal) }
        var includingHidden = false
        switch reader {
        case .anyone: break
        case .signedIn(let token):
            if let product = try await store.product(id: id, includingHidden: false) { return product }
            guard let owner = try await store.ownership(of: id), owner.hidden, owner.passwordHash == nil,
                try await vendor(.session(token: token))?.identifier == owner.vendorIdentifier
            else { throw MarketError.productNotFound(id) }
            throw MarketError.hiddenByOperator(id)
        case .owner(let proof): try await checkOwnership(of: id, proof: proof)
        case .operator: includingHidden = true
        }
        guard let product = try await store.product(id: id, includingHidden: includingHidden) else {
            throw MarketError.productNotFound(id)
        }
        return product
    }

    /// A stored image, or nil when no image has that key. A smaller copy is made the first time a page asks for it
    /// and kept, rather than on upload, so that a create does no work for sizes nobody asks for.
    /// A hard case's picture is noted as shaping the answer of the team `rehearsing` it.
    public func image(key: String, rehearsing rehearsal: CatalogueRehearsal? = nil) async throws -> ImageContent? {
        if let picture = RehearsalPicture(key: key) {
            if let hardCase = picture.hardCase { rehearsal?.note([hardCase]) }
            return try await rehearsalPicture(picture, key: key)
        }
        guard ImageKey.isValid(key) else { return nil }
        if let stored = try await images.content(forKey: key) { return stored }
        guard let (hash, width, format) = ImageKey.variant(key) else { return nil }
        for sourceKey in ImageKey.sourceKeys(ofVariant: hash) {
            guard case .bytes(let source)? = try await images.content(forKey: sourceKey) else { continue }
            let copy = try await imageWork.admitting(1) { steps in
                // Never made larger: a width beyond any original's leaves it as wide as it is.
                try await imageProcessor.resize(
                    source, toWidth: width ?? 2 * MarketRules.originalLongEdge, as: format, in: steps)
            }
            try await images.put(copy.data, key: key)
            return .bytes(copy.data)
        }
        return nil
    }

    /// The width and height a picture's first bytes announce, for the inspector to say what an answer was.
    public func pictureSize(of bytes: Data) -> (width: Int, height: Int)? { imageProcessor.size(of: bytes) }

    /// The copies a page may ask for of `image`: each width below its own, in its own format and in WebP, and a
    /// WebP copy as wide as the image, so that a browser taking WebP is never offered less than the original's width.
    public static func variants(of image: ProductImage) -> [(key: String, width: Int, format: ImageFormat)] {
        guard let format = ImageKey.format(of: image.originalKey) else { return [] }
        let smaller = ImageKey.variantWidths.filter { $0 < image.width }.flatMap { width in
            [format, .webp].map { (ImageKey.variant(of: image.originalKey, width: width, format: $0), width, $0) }
        }
        let whole = (ImageKey.variant(of: image.originalKey, width: nil, format: .webp), image.width, ImageFormat.webp)
        return smaller + [whole]
    }

    // MARK: Vendors

    /// Registers a vendor, generating a missing identifier or secret (a chosen one needs
    /// `VendorSecret.minimumChosenLength` characters); the secret is returned once, only its bcrypt hash kept.
    /// `id` gives a chosen `vendor_id`: some apps show their edit menus only for their team's number on the old server.
    /// `asTeam` registers a team of a class (`Vendor.isTeam`), as a teacher does.
    public func registerVendor(
        name: String, identifier: String? = nil, secret: String? = nil, id: Int64? = nil, asTeam: Bool = false
    ) async throws -> (vendor: Vendor, secret: String) {
        if let secret { try VendorSecret.validateChosen(secret) }
        if let id, id < 1 { throw MarketError(.invalid, field: .sent("vendor-id"), rule: .atLeastOne) }
        return try await addVendor(name: name, identifier: identifier, secret: secret, id: id, asTeam: asTeam)
    }

    /// Open registration takes whatever secret an app has hard-coded: refusing it would leave the app unable to sell.
    private func addVendor(
        name: String, identifier: String?, secret: String?, id: Int64? = nil, asTeam: Bool
    ) async throws -> (vendor: Vendor, secret: String) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw MarketError.missing(.name) }
        let identifier = try identifier.map(VendorIdentifier.validated) ?? VendorIdentifier.generate()
        let secret = secret ?? VendorSecret.generate()
        try VendorSecret.validate(secret)
        let secretHash = try await hasher.hash(secret)
        let vendor = try await store.insertVendor(
            NewVendor(
                id: id, identifier: identifier, name: name, secretHash: secretHash, createdAt: now(), isTeam: asTeam))
        return (vendor, secret)
    }

    /// An app used `vendor`'s team address: it is a team of the class from now on. Returns it as such.
    public func teamAddressUsed(by vendor: Vendor) async throws -> Vendor {
        guard !vendor.isTeam else { return vendor }
        var team = vendor
        team.teamSeat = try await store.markTeam(vendorID: vendor.id)
        knownVendors.remember(team)
        return team
    }

    public func vendors() async throws -> [Vendor] { try await store.allVendors() }

    /// The team in `seat` (whose own port is that seat's), remembered once found: a seat is never given again.
    public func team(inSeat seat: Int) async throws -> Vendor? {
        if let known = knownVendors.bySeat.withLock({ $0[seat] }) { return known }
        guard let team = try await store.team(inSeat: seat) else { return nil }
        knownVendors.bySeat.withLock { $0[seat] = team }
        return team
    }

    /// The vendor `key` names, or nil: an identifier no vendor has, or a sign-in that has ended.
    public func vendor(_ key: VendorKey) async throws -> Vendor? {
        switch key {
        case .identifier(let identifier):
            let identifier = VendorIdentifier.normalized(identifier)
            if let known = knownVendors.vendors.withLock({ $0[identifier] }) { return known }
            let vendor = try await store.vendorCredentials(identifier: identifier)?.vendor
            knownVendors.vendors.withLock { $0[identifier] = vendor }
            return vendor
        case .session(let token): return try await store.vendor(forSession: Self.digest(ofSession: token), at: now())
        case .id(let id):
            if let known = knownVendors.byID.withLock({ $0[id] }) { return known }
            guard let vendor = try await store.allVendors().first(where: { $0.id == id }) else { return nil }
            knownVendors.byID.withLock { $0[id] = vendor }
            return vendor
        }
    }

    /// The vendor these credentials prove, or `wrongCredentials`. An unknown identifier takes as long to refuse as a
    /// wrong secret, unless open registration makes it a vendor. After too many wrong secrets for one identifier or
    /// from one `sender` in this `use`, `throttled` until a wait is over. `known` is what `admitSeller` read, if any.
    public func authenticate(
        _ credentials: VendorCredentials, from sender: RequestSender?, use: SecretUse = .appRequest,
        known: StoredVendor? = nil
    ) async throws -> Vendor {
        let identifier = VendorIdentifier.normalized(credentials.identifier)
        guard !identifier.isEmpty else { throw MarketError.missing(.identifier) }
        guard !credentials.secret.isEmpty else { throw MarketError.missing(.secret) }
        let named = if let known { known.vendor } else { try await vendor(.identifier(identifier)) }
        return try await throttled(
            Self.vendorSubject(identifier), from: sender, team: named, secret: credentials.secret, use: use
        ) {
            let stored = if let known { known } else { try await store.vendorCredentials(identifier: identifier) }
            if stored == nil, openRegistration {
                return try await addVendor(
                    name: "vendor \(identifier.prefix(8))", identifier: identifier, secret: credentials.secret,
                    asTeam: true
                ).vendor
            }
            let matches = try await hasher.verify(credentials.secret, against: stored?.secretHash ?? SecretHasher.decoy)
            guard matches, let stored else { throw MarketError.wrongCredentials }
            return stored.vendor
        }
    }

    /// Refuses a sale from an identifier no vendor has (unless open registration would make it one) before its upload
    /// is read: the answer a wrong secret gets, after as long. What it read goes with the sale's `OwnershipProof`.
    public func admitSeller(identifier: String?) async throws -> AdmittedSeller? {
        let identifier = VendorIdentifier.normalized(identifier ?? "")
        guard !identifier.isEmpty else { return nil }
        if let stored = try await store.vendorCredentials(identifier: identifier) {
            return AdmittedSeller(stored: stored)
        }
        guard !openRegistration else { return nil }
        _ = try await hasher.verify("", against: SecretHasher.decoy)
        throw MarketError.wrongCredentials
    }

    func validated<T>(_ check: @autoclosure () throws(ValidationError) -> T) throws(MarketError) -> T {
        do { return try check() } catch { throw MarketError.invalid(error) }
    }
}

/// Who reads a product, which decides what they may see of it.
public enum ProductReader: Sendable {
    case anyone
    /// A signed-in vendor, who learns that an operator hid their own product.
    case signedIn(token: String)
    /// Whoever would change the product, with their proof.
    case owner(OwnershipProof)
    case `operator`(MarketOperator)
}

/// How a vendor is found: by the identifier an app sends, a storefront sign-in, or the vendor_id a team address names.
public enum VendorKey: Sendable {
    case identifier(String)
    case session(token: String)
    case id(Int64)
}

/// A vendor found before a sale's upload was read.
public struct AdmittedSeller: Sendable, Equatable { let stored: StoredVendor }

final class KnownVendors: Sendable {
    let vendors = Mutex<[String: Vendor]>([:])
    let byID = Mutex<[Int64: Vendor]>([:])
    let bySeat = Mutex<[Int: Vendor]>([:])

    /// Replaces what is remembered of `vendor`, wherever it is.
    func remember(_ vendor: Vendor) {
        vendors.withLock { if $0[vendor.identifier] != nil { $0[vendor.identifier] = vendor } }
        byID.withLock { if $0[vendor.id] != nil { $0[vendor.id] = vendor } }
    }
}
