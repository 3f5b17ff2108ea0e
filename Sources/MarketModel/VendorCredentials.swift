/// What a vendor presents to change the market: its identifier and its secret.
public struct VendorCredentials: Sendable, Equatable {
    public var identifier: String
    public var secret: String

    public init(identifier: String, secret: String) {
        self.identifier = identifier
        self.secret = secret
    }
}
