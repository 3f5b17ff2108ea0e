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

    /// Fills a market with the demo catalogue: an empty one, or one whose first fill was stopped halfway (it holds
    /// fewer products than the catalogue, all the demo vendors'), which gets the rest, the same as a whole fill would
    /// have made them. A market that holds other products is left alone. Returns how many products it added;
    /// `progress` hears of each.
    @discardableResult
    public static func fill(
        _ service: MarketService, productCount: Int = 64, progress: (WorkProgress) -> Void = { _ in }
    ) async throws -> Int {
        let known = Set(try await service.vendors().map(\.identifier))
        for vendor in vendors where !known.contains(vendor.identifier) {
            _ = try await service.registerVendor(
                name: vendor.name, identifier: vendor.identifier, secret: vendor.secret)
        }
        let demoVendors = Set(
            try await service.vendors().filter { vendor in
                vendors.contains { $0.identifier == vendor.identifier }
            }.map(\.id))
        let listed = try await service.products(PageRequest(number: 1, itemsPerPage: productCount))
        let made = listed.totalCount
        guard made < productCount, listed.items.allSatisfy({ demoVendors.contains($0.vendor.id) }) else { return 0 }
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
            // Each product's draws are made whether or not it is made now, so that a fill taken up again makes the
            // rest as a whole fill would have.
            let looks = (1...Int.random(in: 1...5, using: &generator)).map { dots in
                let from = (0..<3).map { _ in Double.random(in: 40...220, using: &generator) }
                let to = (0..<3).map { _ in Double.random(in: 40...220, using: &generator) }
                return (dots: dots, from: from, to: to, landscape: Bool.random(using: &generator))
            }
            guard index >= made else { continue }
            let pictures = try looks.map { look in
                try ImageSynthesizer.picture(
                    width: look.landscape ? 960 : 720, height: look.landscape ? 720 : 960, from: look.from,
                    to: look.to, dots: look.dots)
            }
            _ = try await service.createProduct(
                draft, images: pictures, by: OwnershipProof(signedInWith: sessions[index % vendors.count]))
            progress(WorkProgress(.demoProducts, done: index + 1 - made, of: productCount - made))
        }
        for token in sessions { try await service.signOut(token: token) }
        return productCount - made
    }
}
