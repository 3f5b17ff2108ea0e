import Crypto
import Foundation

/// The key that seals the pages' cookies. Servers that share a market share it, so that a
/// sign-in made on one holds on every other; it outlives restarts.
public struct SessionKey: Sendable {
    public let bytes: Data

    /// A key for one run: its cookies die with the process.
    public static func random() -> SessionKey {
        // 256 bits are the 32 bytes a key holds.
        SessionKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })!
    }

    /// A key of 32 bytes, or nil.
    public init?(bytes: Data) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// A key given as 32 bytes in base64, as OPENMARKET_SESSION_KEY holds it, or nil.
    public init?(base64: String) {
        guard let bytes = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return nil
        }
        self.init(bytes: bytes)
    }

    /// The key in `file`, created (readable by its owner only) when missing.
    public init(storedAt file: URL) throws {
        if let data = try? Data(contentsOf: file), let key = SessionKey(bytes: data) {
            self = key
            return
        }
        self = Self.random()
        try? FileManager.default.removeItem(at: file)
        try OwnerOnlyFile.create(atPath: file.path, contents: bytes)
    }
}
