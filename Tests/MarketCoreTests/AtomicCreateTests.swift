import Foundation
import MarketCore
import MarketImaging
import MarketModel
import MarketTestSupport
import Testing

/// A store that runs `beforeInsert` at the moment a product's rows are about to go in: to fail
/// there as a full disk would, or to run a sweep in the window between a create's image puts and
/// its commit. Neither can be produced on demand with a real SQLite file.
struct InterceptingStore: MarketStore {
    let base: any MarketStore
    let beforeInsert: @Sendable () async throws -> Void

    func insertProduct(_ product: NewProduct) async throws -> Product {
        try await beforeInsert()
        return try await base.insertProduct(product)
    }
    func insertVendor(_ vendor: NewVendor) async throws -> Vendor { try await base.insertVendor(vendor) }
    func vendorCredentials(identifier: String) async throws -> StoredVendor? {
        try await base.vendorCredentials(identifier: identifier)
    }
    func allVendors() async throws -> [Vendor] { try await base.allVendors() }
    func markTeam(vendorID: Int64) async throws -> Int { try await base.markTeam(vendorID: vendorID) }
    func team(inSeat seat: Int) async throws -> Vendor? { try await base.team(inSeat: seat) }
    func product(id: Int64, includingHidden: Bool) async throws -> Product? {
        try await base.product(id: id, includingHidden: includingHidden)
    }
    func products(
        _ page: PageRequest, matching search: String?, arranged: ProductArrangement
    ) async throws -> Page<ProductSummary> {
        try await base.products(page, matching: search, arranged: arranged)
    }
    func products(_ page: PageRequest, ofVendor vendorID: Int64) async throws -> Page<ProductSummary> {
        try await base.products(page, ofVendor: vendorID)
    }
    func ownership(of productID: Int64) async throws -> ProductOwnership? { try await base.ownership(of: productID) }
    func updateProduct(
        id: Int64, replacingImages images: [NewProductImage]?, _ change: @escaping @Sendable (Product) throws -> Product
    ) async throws -> (before: Product, after: Product)? {
        try await base.updateProduct(id: id, replacingImages: images, change)
    }
    func deleteProduct(id: Int64) async throws -> Product? { try await base.deleteProduct(id: id) }
    func insertDeleteToken(hash: String, productID: Int64, issuedAt: Date) async throws {
        try await base.insertDeleteToken(hash: hash, productID: productID, issuedAt: issuedAt)
    }
    func appendRequestRecord(vendorID: Int64, at date: Date, detail: Data, keeping: Int) async throws {
        try await base.appendRequestRecord(vendorID: vendorID, at: date, detail: detail, keeping: keeping)
    }
    func requestRecords(vendorID: Int64, after: Int64?, limit: Int) async throws -> [StoredRequestRecord] {
        try await base.requestRecords(vendorID: vendorID, after: after, limit: limit)
    }
    func noteFirstStep(_ step: String, vendorID: Int64, at date: Date) async throws {
        try await base.noteFirstStep(step, vendorID: vendorID, at: date)
    }
    func firstSteps(vendorID: Int64) async throws -> [String: Date] { try await base.firstSteps(vendorID: vendorID) }
    func faults(vendorID: Int64) async throws -> Data? { try await base.faults(vendorID: vendorID) }
    func classFaults() async throws -> Data? { try await base.classFaults() }
    func setClassFaults(_ faults: Data?) async throws { try await base.setClassFaults(faults) }
    func setFaults(_ faults: Data?, vendorID: Int64) async throws {
        try await base.setFaults(faults, vendorID: vendorID)
    }
    func deleteProducts(vendorID: Int64) async throws -> Int { try await base.deleteProducts(vendorID: vendorID) }
    func insertOperator(name: String, secretHash: String, at date: Date) async throws {
        try await base.insertOperator(name: name, secretHash: secretHash, at: date)
    }
    func operatorSecretHash(name: String) async throws -> String? { try await base.operatorSecretHash(name: name) }
    func recordOperatorAction(_ action: OperatorAction) async throws { try await base.recordOperatorAction(action) }
    func operatorActions(limit: Int) async throws -> [OperatorAction] { try await base.operatorActions(limit: limit) }
    func vendorOverview() async throws -> [VendorOverview] { try await base.vendorOverview() }
    func setProductHidden(_ hidden: Bool, id: Int64) async throws -> String? {
        try await base.setProductHidden(hidden, id: id)
    }
    func hiddenProducts() async throws -> [ProductLabel] { try await base.hiddenProducts() }
    func deleteEveryProduct() async throws -> Int { try await base.deleteEveryProduct() }
    func productID(forDeleteToken hash: String) async throws -> Int64? {
        try await base.productID(forDeleteToken: hash)
    }
    func referencedImageKeys(among keys: [String]) async throws -> Set<String> {
        try await base.referencedImageKeys(among: keys)
    }
    func insertSession(tokenHash: String, vendorID: Int64, expiresAt: Date, now: Date) async throws {
        try await base.insertSession(tokenHash: tokenHash, vendorID: vendorID, expiresAt: expiresAt, now: now)
    }
    func vendor(forSession tokenHash: String, at now: Date) async throws -> Vendor? {
        try await base.vendor(forSession: tokenHash, at: now)
    }
    func deleteSession(tokenHash: String) async throws { try await base.deleteSession(tokenHash: tokenHash) }
    func replaceSecret(ofVendor identifier: String, with secretHash: String) async throws -> Bool {
        try await base.replaceSecret(ofVendor: identifier, with: secretHash)
    }
    func failedAttempts(under keys: [String], since: Date) async throws -> [FailedAttempts] {
        try await base.failedAttempts(under: keys, since: since)
    }
    func recordFailedAttempt(under keys: [String], at date: Date, since: Date) async throws {
        try await base.recordFailedAttempt(under: keys, at: date, since: since)
    }
    func clearFailedAttempts(under key: String) async throws { try await base.clearFailedAttempts(under: key) }
    func checkReachable() async throws { try await base.checkReachable() }
    func catalogueVersion() async throws -> Int64 { try await base.catalogueVersion() }
}

struct DiskFull: Error {}

@Suite struct AtomicCreateTests {
    @Test func aFailedInsertLeavesNoRowAndTheSweepTakesItsFiles() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let existing = try await market.addProduct("Shares a picture")
        let filesBefore = try await market.imageFileCount()
        let service = MarketService(
            store: InterceptingStore(base: market.store) { throw DiskFull() }, images: market.images,
            imageProcessor: VipsImageProcessor(), hasher: SecretHasher(cost: 4))
        let vendor = TestMarket.papri
        await #expect(throws: DiskFull.self) {
            try await service.createProduct(
                ProductDraft(name: "Never", description: "Test.", currency: .krw, price: 1),
                images: [try TestImages.jpeg(dots: 1), try TestImages.jpeg(dots: 4)],
                by: OwnershipProof(identifier: vendor.identifier, secret: vendor.secret))
        }
        // No row names the new picture's files, so the sweep takes them; the one shared with an
        // existing product stays.
        #expect(try await service.sweepImages(unusedFor: .zero) == 2)
        #expect(try await market.imageFileCount() == filesBefore)
        #expect(try await market.images.content(forKey: existing.images[0].originalKey) != nil)
    }
}

/// The sweep on each kind of storage: files beside SQLite, rows of PostgreSQL.
@Suite struct ImageSweepTests {
    static let draft = ProductDraft(name: "Same picture", description: "Test.", currency: .krw, price: 1)
    static let papri = OwnershipProof(identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret)

    @Test(arguments: TestStorage.Kind.allCases)
    func aBlobNobodyNamesGoesOnlyOnceItsGraceHasPassed(kind: TestStorage.Kind) async throws {
        try await TestStorage.withMarket(kind) { market in
            let key = String(repeating: "a", count: 64) + ".jpg"
            try await market.images.put(Data("bytes".utf8), key: key)
            #expect(try await market.service.sweepImages(unusedFor: .seconds(60)) == 0)
            #expect(try await market.images.content(forKey: key) == .bytes(Data("bytes".utf8)))
            #expect(try await market.service.sweepImages(unusedFor: .zero) == 1)
            #expect(try await market.images.content(forKey: key) == nil)
        }
    }

    /// A sweep that runs while a create has put its pictures but not yet committed its rows, right
    /// after a delete dropped the last row naming the same picture, must leave that picture alone.
    @Test(arguments: TestStorage.Kind.allCases)
    func aSweepBetweenACreatesPutsAndItsCommitKeepsThePictures(kind: TestStorage.Kind) async throws {
        try await TestStorage.withMarket(kind) { market in
            _ = try await market.service.registerVendor(
                name: "papri", identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret)
            let picture = try TestImages.jpeg(dots: 3)
            let old = try await market.service.createProduct(Self.draft, images: [picture], by: Self.papri)
            let proof = Self.papri
            let secret = try await market.service.issueDeleteSecret(productID: old.id, proof: proof)
            _ = try await market.service.deleteProduct(productID: old.id, productSecret: secret, from: nil)
            let sweeping = MarketService(
                store: InterceptingStore(base: market.store) {
                    try await market.service.sweepImages(unusedFor: .seconds(60))
                }, images: market.images, imageProcessor: VipsImageProcessor(), hasher: SecretHasher(cost: 4))
            let new = try await sweeping.createProduct(Self.draft, images: [picture], by: Self.papri)
            #expect(new.images.map(\.originalKey) == old.images.map(\.originalKey))
            for key in [new.images[0].originalKey, new.images[0].thumbnailKey] {
                #expect(try await market.images.content(forKey: key) != nil)
            }
        }
    }
}
