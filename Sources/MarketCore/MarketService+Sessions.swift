import Crypto
import Foundation
import MarketModel

/// A storefront sign-in. The token is the visitor's to keep (in a cookie); the market keeps only
/// its digest, so a sign-out or a new secret ends it on every server at once.
public struct VendorSession: Sendable {
    public static let lifetime: TimeInterval = 8 * 3600

    public var vendor: Vendor
    public var token: String
    public var expires: Date
}

extension MarketService {
    /// Checks the credentials (sent by `sender`) and opens a session for their vendor.
    public func signIn(_ credentials: VendorCredentials, from sender: RequestSender?) async throws -> VendorSession {
        let vendor = try await authenticate(credentials, from: sender, use: .signIn)
        let token = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
        let now = now()
        let session = VendorSession(
            vendor: vendor, token: token, expires: now.addingTimeInterval(VendorSession.lifetime))
        try await store.insertSession(
            tokenHash: Self.digest(ofSession: token), vendorID: vendor.id, expiresAt: session.expires, now: now)
        return session
    }

    public func signOut(token: String) async throws {
        try await store.deleteSession(tokenHash: Self.digest(ofSession: token))
    }

    /// The products of the vendor signed in with `token`, newest first.
    public func products(_ page: PageRequest, signedInWith token: String) async throws -> Page<ProductSummary> {
        let page = try validated(page.validated())
        guard let vendor = try await vendor(.session(token: token)) else { throw MarketError.sessionEnded }
        return try await store.products(page, ofVendor: vendor.id)
    }

    /// Gives a vendor a new secret (`secret`, or a generated one) and ends every session it had.
    public func replaceSecret(ofVendor identifier: String, with secret: String? = nil) async throws -> String {
        let identifier = try VendorIdentifier.validated(identifier)
        if let secret { try VendorSecret.validateChosen(secret) }
        let secret = secret ?? VendorSecret.generate()
        guard try await store.replaceSecret(ofVendor: identifier, with: try await hasher.hash(secret)) else {
            throw MarketError(.notFound, field: .identifier, .noVendor(identifier: identifier))
        }
        return secret
    }

    static func digest(ofSession token: String) -> String { Digest.sha256Hex(Data(token.utf8)) }
}
