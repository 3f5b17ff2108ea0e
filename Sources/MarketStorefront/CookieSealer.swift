import Crypto
import Foundation
import MarketCore
import MarketHTTPShared

/// Seals small values into cookie text that only this market can read, and that nobody can alter
/// without it showing: AES-GCM under the market's session key. A product's secret may ride in a
/// sealed edit pass because no page, script or log ever sees it in the clear.
struct CookieSealer: Sendable {
    /// The key's bytes (`SymmetricKey` itself is not `Sendable`).
    let keyBytes: Data

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    func seal(_ value: some Encodable) -> String {
        guard let plain = try? JSONEncoder().encode(value), let sealed = try? AES.GCM.seal(plain, using: key).combined
        else { return "" }
        return sealed.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The value sealed in `text`, or nil when the text is missing, forged or damaged.
    func open<Value: Decodable>(_ type: Value.Type, from text: String?) -> Value? {
        guard var base64 = text?.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key)
        else { return nil }
        return try? JSONDecoder().decode(type, from: plain)
    }
}

/// A sign-in, kept in the `market_session` cookie: the session's token, which the market checks
/// before anything is done in the vendor's name, and the name to greet the vendor with.
struct SessionCookie: Codable, Sendable {
    var token: String
    var name: String
    var expires: Date
    /// Whose faults a storefront request meets; cookies sealed before there were faults lack it.
    var vendorID: Int64?

    init(_ session: VendorSession) {
        token = session.token
        name = session.vendor.name
        expires = session.expires
        vendorID = session.vendor.id
    }
}

/// An operator's sign-in, kept in a cookie scoped to the console for two hours.
struct OperatorPass: Codable, Sendable {
    static let lifetime: TimeInterval = 2 * 3600
    var operatorName: MarketOperator
    var expires: Date
}

/// Proof that the person editing a product gave its secret, kept in a cookie scoped to that
/// product's edit page for half an hour.
struct EditPass: Codable, Sendable {
    static let lifetime: TimeInterval = 30 * 60
    var productID: Int64
    var secret: String
    var expires: Date
}
