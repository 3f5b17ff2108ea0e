import MarketModel

extension MarketService {
    /// Deletes every product of the vendor these credentials prove, to start a lesson afresh; their
    /// pictures go with the next sweep. Returns how many products there were.
    public func deleteAllProducts(of credentials: VendorCredentials, from client: String?) async throws -> Int {
        let vendor = try await authenticate(credentials, from: client)
        return try await store.deleteProducts(vendorID: vendor.id)
    }
}
