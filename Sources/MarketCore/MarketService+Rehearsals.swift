import MarketModel

extension MarketService {
    /// Deletes every product of the vendor these credentials prove, to start a lesson afresh; their
    /// pictures go with the next sweep. Returns how many products there were.
    public func deleteAllProducts(of credentials: VendorCredentials) async throws -> Int {
        let vendor = try await authenticate(credentials)
        return try await store.deleteProducts(vendorID: vendor.id)
    }
}
