import MarketCore
import MarketImaging
import MarketModel

/// A catalogue for a newcomer to browse: products from several vendors, each with one to five pictures drawn here.
/// The vendors are the ones the reference apps have hard-coded, so those apps can sell on a demo market as they are.
public enum DemoCatalogue {
    public struct DemoVendor: Sendable {
        public var name: String
        public var identifier: String
        public var secret: String
    }

    public static let vendors = [
        DemoVendor(name: "papri", identifier: "a09d8d1a-d1b8-11ec-9676-bd41bb2bb233", secret: "80sgmjjk9v"),
        DemoVendor(name: "judy", identifier: "f27bc126-0335-11ed-9676-1776ba240ec2", secret: "0hvvXjSeAS"),
        DemoVendor(name: "nala", identifier: "cd706a3e-66db-11ec-9626-796401f2341a", secret: "password"),
    ]

    /// Fills an empty market; a market that holds products already is left alone. Returns how many products it added.
    @discardableResult
    public static func fill(_ service: MarketService, productCount: Int = 64) async throws -> Int {
        guard try await service.products(PageRequest(number: 1, itemsPerPage: 1)).totalCount == 0 else { return 0 }
        let known = Set(try await service.vendors().map(\.identifier))
        for vendor in vendors where !known.contains(vendor.identifier) {
            _ = try await service.registerVendor(
                name: vendor.name, identifier: vendor.identifier, secret: vendor.secret)
        }
        // Signed in once each, as a storefront seller is: a secret's slow hash runs three times, not once per product.
        var sessions: [String] = []
        for vendor in vendors {
            let credentials = VendorCredentials(identifier: vendor.identifier, secret: vendor.secret)
            sessions.append(try await service.signIn(credentials, from: nil).token)
        }
        var generator = SplitMix64(seed: 2022)
        for index in 0..<productCount {
            let item = DemoItems.all[index % DemoItems.all.count]
            let edition = index / DemoItems.all.count
            let price = item.price * Int64(1 + edition)
            let discount = index % 3 == 0 ? price / 10 : 0
            let draft = ProductDraft(
                name: edition == 0
                    ? item.name : "\(item.name) \(DemoItems.editions[edition % DemoItems.editions.count])",
                description: item.description, currency: item.currency, price: price, discount: discount,
                stock: index % 7 == 0 ? 0 : Int64.random(in: 1...120, using: &generator))
            let pictures = try (1...Int.random(in: 1...5, using: &generator)).map { dots in
                let from = (0..<3).map { _ in Double.random(in: 40...220, using: &generator) }
                let to = (0..<3).map { _ in Double.random(in: 40...220, using: &generator) }
                let landscape = Bool.random(using: &generator)
                return try ImageSynthesizer.picture(
                    width: landscape ? 960 : 720, height: landscape ? 720 : 960, from: from, to: to, dots: dots)
            }
            _ = try await service.createProduct(
                draft, images: pictures, by: OwnershipProof(signedInWith: sessions[index % vendors.count]))
        }
        for token in sessions { try await service.signOut(token: token) }
        return productCount
    }
}
