import Crypto
import Foundation
import MarketCore
import MarketHTTPShared

/// Seals small values into cookie text that only this market can read or alter unnoticed (AES-GCM under
/// the session key), which is why a sealed edit pass may carry a product's secret.
package struct CookieCipher: Sendable {
    /// The key's bytes (`SymmetricKey` itself is not `Sendable`).
    let keyBytes: Data

    package init(keyBytes: Data) { self.keyBytes = keyBytes }

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    package func seal(_ value: some Encodable) -> String {
        guard let plain = try? JSONEncoder().encode(value), let sealed = try? AES.GCM.seal(plain, using: key).combined
        else { return "" }
        return Self.cookieText(sealed.base64EncodedString())
    }

    /// The value sealed in `text`, or nil when the text is missing, forged or damaged.
    package func open<Value: Decodable>(_ type: Value.Type, from text: String?) -> Value? {
        guard let text, let data = Data(base64Encoded: Self.base64(text)),
            let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key)
        else { return nil }
        return try? JSONDecoder().decode(type, from: plain)
    }

    // Base64 in RFC 4648's URL alphabet without padding, safe in a cookie, and back: byte by byte,
    // as NSString's `replacingOccurrences` is slow on Linux.

    private static func cookieText(_ base64: String) -> String {
        String(
            decoding: base64.utf8.lazy.filter { $0 != UInt8(ascii: "=") }.map {
                switch $0 {
                case UInt8(ascii: "+"): UInt8(ascii: "-")
                case UInt8(ascii: "/"): UInt8(ascii: "_")
                default: $0
                }
            }, as: UTF8.self)
    }

    private static func base64(_ cookieText: String) -> String {
        var bytes = cookieText.utf8.map {
            switch $0 {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: $0
            }
        }
        bytes += repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A sign-in, kept in the `market_session` cookie; the market checks its token before acting in the vendor's name.
package struct SessionCookie: Codable, Sendable {
    package var token: String
    package var name: String
    package var expires: Date
    /// Whose rehearsed faults a page request meets; optional so that cookies sealed without it still open.
    package var vendorID: Int64?

    init(_ session: VendorSession) {
        token = session.token
        name = session.vendor.name
        expires = session.expires
        vendorID = session.vendor.id
    }
}
