import Foundation

/// The 2022 apps decode currency into an enum with exactly these two cases: no other value may ever leave the server.
public enum Currency: String, Sendable, Codable, CaseIterable {
    case krw = "KRW"
    case usd = "USD"

    /// Parses a currency code as clients send it (`KRW`, `krw`, ` USD `).
    public init?(code: String) {
        self.init(rawValue: code.trimmingCharacters(in: .whitespacesAndNewlines).uppercased())
    }
}
