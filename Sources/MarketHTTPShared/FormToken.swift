import Hummingbird
import MarketCore

/// The token a visitor's forms carry, against forms posted from other sites in their name.
package enum FormToken {
    package static let cookieName = "market_form_token"

    /// A new visitor's token: 32 random bytes in hex.
    package static func make() -> String {
        Digest.hex(RandomBytes.shared.take(32))
    }

    /// The cookie that hands `token` out, `Secure` over HTTPS.
    package static func cookie(_ token: String, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: token, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
