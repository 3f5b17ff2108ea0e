import Foundation
import MarketModel

/// Every rule of the market in one place. The API dialects and the storefront only translate their
/// wire formats into calls on this service and its answers back.
public struct MarketService: Sendable {
    let store: any MarketStore
    let images: any ImageStore
    let imageProcessor: any ImageProcessor
    let hasher: SecretHasher
    let now: @Sendable () -> Date

    public init(
        store: any MarketStore, images: any ImageStore, imageProcessor: any ImageProcessor,
        hasher: SecretHasher = SecretHasher(), now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.images = images
        self.imageProcessor = imageProcessor
        self.hasher = hasher
        self.now = now
    }

    // MARK: Browsing

    public func products(_ page: PageRequest, search: String? = nil) async throws -> Page<ProductSummary> {
        let page = try validated(page.validated())
        let term = search?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return try await store.products(page, matching: term?.isEmpty == false ? term : nil)
    }

    public func product(id: Int64) async throws -> Product {
        guard let product = try await store.product(id: id) else { throw MarketError.productNotFound(id) }
        return product
    }

    /// The bytes of a stored image, or nil when no image has that key.
    public func imageData(key: String) async throws -> Data? {
        guard ImageKey.isValid(key) else { return nil }
        return try await images.data(forKey: key)
    }

    // MARK: Selling

    public func createProduct(
        _ draft: ProductDraft, images uploads: [Data], by credentials: VendorCredentials
    ) async throws -> Product {
        let vendor = try await authenticate(credentials)
        let draft = try validated(draft.validated())
        try validated(MarketRules.validImageCount(uploads.count))
        let processed = try await process(uploads)
        var created: [String] = []
        do {
            var newImages: [NewProductImage] = []
            for image in processed {
                let original = try await put(image.original, created: &created)
                let thumbnail = try await put(image.thumbnail, created: &created)
                newImages.append(
                    NewProductImage(
                        originalKey: original, thumbnailKey: thumbnail,
                        width: image.original.width, height: image.original.height))
            }
            return try await store.insertProduct(
                NewProduct(vendorID: vendor.id, draft: draft, images: newImages, createdAt: now()))
        } catch {
            await removeUnreferenced(created)
            throw error
        }
    }

    public func updateProduct(
        id: Int64, _ changes: ProductChanges, by credentials: VendorCredentials
    ) async throws -> Product {
        let vendor = try await authenticate(credentials)
        let now = now()
        let updated = try await store.updateProduct(id: id) { product in
            guard product.vendor.id == vendor.id else { throw MarketError.notOwner(id) }
            var changed = try validated(changes.applied(to: product))
            if changed != product { changed.updatedAt = now }
            return changed
        }
        guard let updated else { throw MarketError.productNotFound(id) }
        return updated
    }

    /// Issues a fresh secret that deletes this one product (and nothing else) when presented to
    /// `deleteProduct`. Only a digest of it is kept.
    public func issueDeleteSecret(productID: Int64, by credentials: VendorCredentials) async throws -> String {
        let vendor = try await authenticate(credentials)
        let product = try await product(id: productID)
        guard product.vendor.id == vendor.id else { throw MarketError.notOwner(productID) }
        let secret = UUID().uuidString.lowercased()
        try await store.insertDeleteToken(
            hash: Digest.sha256Hex(Data(secret.utf8)), productID: productID, issuedAt: now())
        return secret
    }

    /// Deletes the product that `productSecret` was issued for. When the request names a product id
    /// too, it must be that product; the identifier must be its vendor's.
    public func deleteProduct(
        productID: Int64?, productSecret: String, identifier: String?
    ) async throws -> Product {
        let digest = Digest.sha256Hex(Data(productSecret.lowercased().utf8))
        guard let tokenProductID = try await store.productID(forDeleteToken: digest) else {
            if let productID { _ = try await product(id: productID) }
            throw MarketError.wrongProductSecret
        }
        guard productID == nil || productID == tokenProductID else { throw MarketError.wrongProductSecret }
        guard let identifier = identifier.map(VendorIdentifier.normalized), !identifier.isEmpty else {
            throw MarketError.missing("identifier")
        }
        let owner = try await store.vendorCredentials(identifier: identifier)
        let deleted = try await store.deleteProduct(id: tokenProductID) { product in
            guard product.vendor.id == owner?.vendor.id else { throw MarketError.notOwner(tokenProductID) }
        }
        guard let deleted else { throw MarketError.productNotFound(tokenProductID) }
        await removeUnreferenced(deleted.images.flatMap { [$0.originalKey, $0.thumbnailKey] })
        return deleted
    }

    // MARK: Vendors

    /// Registers a vendor. A missing identifier or secret is generated; the secret is returned once
    /// and only its bcrypt hash is kept.
    public func registerVendor(
        name: String, identifier: String? = nil, secret: String? = nil
    ) async throws -> (vendor: Vendor, secret: String) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw MarketError.missing("name") }
        let identifier = try identifier.map(VendorIdentifier.validated) ?? VendorIdentifier.generate()
        let secret = secret ?? VendorSecret.generate()
        try VendorSecret.validate(secret)
        let vendor = try await store.insertVendor(
            NewVendor(identifier: identifier, name: name, secretHash: try await hasher.hash(secret), createdAt: now()))
        return (vendor, secret)
    }

    public func vendors() async throws -> [Vendor] {
        try await store.allVendors()
    }

    /// The vendor these credentials prove, or `wrongCredentials`. An unknown identifier takes as
    /// long to refuse as a wrong secret.
    public func authenticate(_ credentials: VendorCredentials) async throws -> Vendor {
        let identifier = VendorIdentifier.normalized(credentials.identifier)
        guard !identifier.isEmpty else { throw MarketError.missing("identifier") }
        guard !credentials.secret.isEmpty else { throw MarketError.missing("secret") }
        let stored = try await store.vendorCredentials(identifier: identifier)
        let matches = try await hasher.verify(credentials.secret, against: stored?.secretHash ?? SecretHasher.decoy)
        guard matches, let stored else { throw MarketError.wrongCredentials }
        return stored.vendor
    }

    // MARK: Images

    private func process(_ uploads: [Data]) async throws -> [ProcessedImage] {
        var processed: [ProcessedImage] = []
        for (index, upload) in uploads.enumerated() {
            let field = "images[\(index)]"
            guard upload.count <= MarketRules.maximumImageBytes else {
                throw MarketError(
                    .tooLarge, field: field,
                    "\(field) is \(upload.count) bytes; an image may be at most \(MarketRules.maximumImageBytes) bytes")
            }
            do {
                processed.append(try await imageProcessor.process(upload))
            } catch let rejection as ImageRejection {
                throw MarketError(
                    rejection.isTooLarge ? .tooLarge : .invalid, field: field, "\(field) \(rejection.reason)")
            }
        }
        return processed
    }

    private func put(_ image: EncodedImage, created: inout [String]) async throws -> String {
        let key = ImageKey.make(for: image)
        if try await images.put(image.data, key: key) { created.append(key) }
        return key
    }

    private func removeUnreferenced(_ keys: [String]) async {
        for key in Set(keys) {
            guard (try? await store.isImageBlobReferenced(key)) == false else { continue }
            try? await images.remove(key: key)
        }
    }

    private func validated<T>(_ check: @autoclosure () throws(ValidationError) -> T) throws(MarketError) -> T {
        do { return try check() } catch { throw MarketError.invalid(error) }
    }
}
