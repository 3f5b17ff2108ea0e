import Foundation
import MarketModel

/// What a request presents to sell or change a product: a vendor's identifier and secret (2022 API), a password
/// alone (2021 API: an item guarded by its own password), or a storefront sign-in. Either the item's password or
/// its vendor's secret changes a product, so an item made through either API can be changed through the other.
public struct OwnershipProof: Sendable, Equatable {
    public var identifier: String?
    public var secret: String
    /// The token of a storefront sign-in: its vendor may change its own products without the secret.
    public var sessionToken: String?
    /// Who sent the request: wrong secrets are counted per sender too.
    public var sender: RequestSender?
    /// The seller `admitSeller` found for `identifier`, so that the vendor is read once a request.
    public var admitted: AdmittedSeller?

    public init(
        identifier: String? = nil, secret: String, sender: RequestSender? = nil, admitted: AdmittedSeller? = nil
    ) {
        self.identifier = identifier
        self.secret = secret
        self.sender = sender
        self.admitted = admitted
    }

    public init(signedInWith token: String, sender: RequestSender? = nil) {
        secret = ""
        sessionToken = token
        self.sender = sender
    }
}

extension MarketService {
    /// The vendor that 2021 items belong to: that API had no vendors, only a password per item.
    /// Its own secret is random and thrown away, so only the items' passwords change them.
    static let itemsVendorIdentifier = "00000000-0000-4000-8000-000000002021"

    /// Every vendor a person registered has a team address; the stand-in that 2021 items belong to has none.
    public static func hasTeamAddress(_ vendor: Vendor) -> Bool { vendor.identifier != itemsVendorIdentifier }

    /// Registers a product for the vendor `proof` names (or signed in), or, from a password alone, a 2021 item
    /// guarded by that password and allowed no pictures. A secret's slow hash is checked on one core while the
    /// pictures are made on the others; nothing is stored until it holds, and a wrong secret outranks other refusals.
    public func createProduct(_ draft: ProductDraft, images uploads: [Data], by proof: OwnershipProof) async throws
        -> Product
    {
        if let token = proof.sessionToken {
            guard let vendor = try await vendor(.session(token: token)) else { throw MarketError.sessionEnded }
            return try await insert(draft, images: uploads, vendorID: { vendor.id })
        }
        guard let identifier = proof.identifier else {
            try VendorSecret.validate(proof.secret)
            let vendor = try await itemsVendor()
            return try await insert(
                draft, images: uploads, vendorID: { vendor.id }, passwordHash: try await hasher.hash(proof.secret),
                minimumImages: 0)
        }
        let credentials = VendorCredentials(identifier: identifier, secret: proof.secret)
        let vendor = Task { try await authenticate(credentials, from: proof.sender, known: proof.admitted?.stored) }
        return try await insert(draft, images: uploads, vendorID: { try await vendor.value.id })
    }

    /// Changes a product's facts and, with `images`, replaces its pictures.
    public func updateProduct(
        id: Int64, _ changes: ProductChanges, images uploads: [Data]? = nil, proof: OwnershipProof
    ) async throws -> Product {
        try await checkOwnership(of: id, proof: proof)
        if let uploads { try validated(MarketRules.validImageCount(uploads.count)) }
        let now = now()
        let processed: [ProcessedImage]? = if let uploads { try await process(uploads) } else { nil }
        let replaced = try await storing(processed) { newImages in
            try await store.updateProduct(id: id, replacingImages: newImages) { product in
                var changed = try validated(changes.applied(to: product))
                if changed != product || newImages != nil { changed.updatedAt = now }
                return changed
            }
        }
        guard let replaced else { throw MarketError.productNotFound(id) }
        return replaced.after
    }

    /// Issues a fresh secret that deletes this one product (and nothing else) when presented to
    /// `deleteProduct(productID:productSecret:)`. Only a digest of it is kept.
    public func issueDeleteSecret(productID: Int64, proof: OwnershipProof) async throws -> String {
        try await checkOwnership(of: productID, proof: proof)
        let secret = UUID().uuidString.lowercased()
        try await store.insertDeleteToken(
            hash: Digest.sha256Hex(Data(secret.utf8)), productID: productID, issuedAt: now())
        return secret
    }

    /// Deletes the product that `productSecret` was issued for; the secret is the proof. When the
    /// request names a product id too, it must be that product.
    public func deleteProduct(
        productID: Int64?, productSecret: String, from sender: RequestSender?
    ) async throws -> Product {
        let digest = Digest.sha256Hex(Data(productSecret.lowercased().utf8))
        var team: Vendor?
        if let productID, let owner = try await store.ownership(of: productID) {
            team = try await vendor(.identifier(owner.vendorIdentifier))
        }
        let tokenProductID = try await throttled(
            productID.map(Self.productSubject), from: sender, team: team, secret: productSecret
        ) {
            guard let tokenProductID = try await store.productID(forDeleteToken: digest) else {
                if let productID, try await store.ownership(of: productID)?.hidden != false {
                    throw MarketError.productNotFound(productID)
                }
                throw MarketError.wrongProductSecret
            }
            guard productID == nil || productID == tokenProductID else { throw MarketError.wrongProductSecret }
            return tokenProductID
        }
        return try await delete(tokenProductID)
    }

    /// Deletes a product at once for whoever proves the right to change it (the 2021 API's way).
    public func deleteProduct(id: Int64, proof: OwnershipProof) async throws -> Product {
        try await checkOwnership(of: id, proof: proof)
        return try await delete(id)
    }

    /// Deletes every product of the vendor these credentials prove, to start a lesson afresh; their pictures go with
    /// the next sweep.
    public func deleteAllProducts(of credentials: VendorCredentials, from sender: RequestSender?) async throws -> Int {
        let vendor = try await authenticate(credentials, from: sender, use: .signIn)
        return try await store.deleteProducts(vendorID: vendor.id)
    }

    // MARK: Rules of ownership

    /// Throws unless `proof` lets its holder change the product; every change asks this first.
    func checkOwnership(of productID: Int64, proof: OwnershipProof) async throws {
        guard let owner = try await store.ownership(of: productID) else { throw MarketError.productNotFound(productID) }
        guard owner.hidden else { return try await check(owner, of: productID, proof: proof) }
        // Its owner learns why it is gone; anyone else, that it is not there.
        do {
            try await check(owner, of: productID, proof: proof)
        } catch let error as MarketError where error.kind == .throttled || error.kind == .unavailable {
            throw error
        } catch {
            throw MarketError.productNotFound(productID)
        }
        throw MarketError.hiddenByOperator(productID)
    }

    private func check(_ owner: ProductOwnership, of productID: Int64, proof: OwnershipProof) async throws {
        if let token = proof.sessionToken {
            guard let vendor = try await vendor(.session(token: token)) else { throw MarketError.sessionEnded }
            guard owner.passwordHash == nil, vendor.identifier == owner.vendorIdentifier else {
                throw MarketError.notOwner(productID)
            }
            return
        }
        guard !proof.secret.isEmpty else { throw MarketError.missing(.secret) }
        var subject = Self.productSubject(productID)
        var hash = owner.vendorSecretHash
        if let password = owner.passwordHash {
            // A 2021 item's vendor is a stand-in whose secret nobody knows: only the item's password
            // proves it, whichever identifier comes with it.
            hash = password
        } else if let identifier = proof.identifier.map(VendorIdentifier.normalized), !identifier.isEmpty {
            if identifier != owner.vendorIdentifier {
                _ = try await authenticate(
                    VendorCredentials(identifier: identifier, secret: proof.secret), from: proof.sender)
                throw MarketError.notOwner(productID)
            }
            subject = Self.vendorSubject(identifier)
        }
        let team = try await vendor(.identifier(owner.vendorIdentifier))
        try await throttled(subject, from: proof.sender, team: team, secret: proof.secret) {
            guard try await hasher.verify(proof.secret, against: hash) else { throw MarketError.wrongCredentials }
        }
    }

    private func itemsVendor() async throws -> Vendor {
        let identifier = Self.itemsVendorIdentifier
        if let stored = try await store.vendorCredentials(identifier: identifier) { return stored.vendor }
        do {
            return try await registerVendor(name: "2021 apps", identifier: identifier).vendor
        } catch let error as MarketError where error.kind == .conflict {
            guard let stored = try await store.vendorCredentials(identifier: identifier) else { throw error }
            return stored.vendor
        }
    }

    // MARK: Writing with images

    /// Registers a product for the vendor `vendorID` gives once the pictures are made. Whatever
    /// `vendorID` throws (who is asking is not allowed to) is the refusal, before any other.
    func insert(
        _ draft: ProductDraft, images uploads: [Data], vendorID: () async throws -> Int64, passwordHash: String? = nil,
        minimumImages: Int = MarketRules.imagesPerProduct.lowerBound
    ) async throws -> Product {
        let checked: (draft: ProductDraft, images: [ProcessedImage])
        do {
            let draft = try validated(draft.validated())
            try validated(MarketRules.validImageCount(uploads.count, minimum: minimumImages))
            checked = (draft, try await process(uploads))
        } catch {
            _ = try await vendorID()
            throw error
        }
        let vendorID = try await vendorID()
        return try await storing(checked.images) { newImages in
            try await store.insertProduct(
                NewProduct(
                    vendorID: vendorID, draft: checked.draft, images: newImages ?? [], passwordHash: passwordHash,
                    createdAt: now()))
        }
    }

    /// Stores made pictures, then runs `write` with them (nil when none were sent). The blobs go in before any
    /// row names them; should `write` fail, no row ever names them and the sweep takes them.
    private func storing<T>(
        _ processed: [ProcessedImage]?, then write: ([NewProductImage]?) async throws -> T
    ) async throws -> T {
        guard let processed else { return try await write(nil) }
        var newImages: [NewProductImage] = []
        for image in processed {
            newImages.append(
                NewProductImage(
                    originalKey: try await put(image.original), thumbnailKey: try await put(image.thumbnail),
                    width: image.original.width, height: image.original.height))
        }
        return try await write(newImages)
    }

    func delete(_ id: Int64) async throws -> Product {
        guard let deleted = try await store.deleteProduct(id: id) else { throw MarketError.productNotFound(id) }
        return deleted
    }

    /// The pictures of one upload, processed side by side in the market's image slots. A refusal
    /// names the first picture that fails, whichever finished first.
    private func process(_ uploads: [Data]) async throws -> [ProcessedImage] {
        let results = try await imageWork.admitting(uploads.count) { steps in
            await withTaskGroup(of: (Int, Result<ProcessedImage, any Error>).self) { group in
                for (index, upload) in uploads.enumerated() {
                    group.addTask { (index, await Result { try await process(upload, index: index, in: steps) }) }
                }
                var results = [Result<ProcessedImage, any Error>?](repeating: nil, count: uploads.count)
                for await (index, result) in group { results[index] = result }
                return results
            }
        }
        return try results.map { try $0!.get() }
    }

    private func process(_ upload: Data, index: Int, in steps: ImageSteps) async throws -> ProcessedImage {
        guard upload.count <= MarketRules.maximumImageBytes else {
            throw MarketError(
                .tooLarge, field: .image(index),
                rule: .imageBytes(size: upload.count, limit: MarketRules.maximumImageBytes))
        }
        do {
            return try await MarketTimers.imageProcessing.measure {
                try await imageProcessor.process(upload, in: steps)
            }
        } catch let rejection as ImageRejection {
            throw MarketError(rejection.isTooLarge ? .tooLarge : .invalid, field: .image(index), rule: rejection.rule)
        }
    }

    private func put(_ image: EncodedImage) async throws -> String {
        let key = ImageKey.make(for: image)
        try await images.put(image.data, key: key)
        return key
    }
}
