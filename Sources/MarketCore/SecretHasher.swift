import Crypto
import Foundation
import HummingbirdBcrypt

/// Hashes vendor secrets with bcrypt (slow and salted) and checks them. bcrypt's own check compares in constant time.
public struct SecretHasher: Sendable {
    public static let defaultCost: UInt8 = 10
    /// bcrypt reads only this many bytes of a secret.
    public static let maximumSecretBytes = 72

    public var cost: UInt8

    public init(cost: UInt8 = SecretHasher.defaultCost) { self.cost = cost }

    public func hash(_ secret: String) async throws -> String {
        let (cost, secret) = (cost, Self.normalized(secret))
        return try await offload { Bcrypt.hash(secret, cost: cost) }
    }

    public func verify(_ secret: String, against hash: String) async throws -> Bool {
        let secret = Self.normalized(secret)
        return try await offload { Bcrypt.verify(secret, hash: hash) }
    }

    /// One rule for every secret and password, wherever it is set or checked: white space around
    /// it is not part of it (form fields arrive trimmed, JSON bodies as typed).
    static func normalized(_ secret: String) -> String { secret.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// A hash of a secret nobody knows, checked against when a vendor is unknown so that a wrong
    /// identifier costs as long as a wrong secret.
    static let decoy = Bcrypt.hash(UUID().uuidString, cost: defaultCost)
}

/// Fast hashes for things that are already random and long: delete secrets and image contents.
public enum Digest {
    public static func sha256Hex(_ data: some DataProtocol) -> String { hex(SHA256.hash(data: data)) }

    /// Lowercase hex, written straight into the string: every answer's tag and every new visitor's token is one.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.withContiguousStorageIfAvailable(hex) ?? Array(bytes).withUnsafeBufferPointer(hex)
    }

    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: 2 * bytes.count) { text in
            for (index, byte) in bytes.enumerated() {
                text[2 * index] = digit(byte >> 4)
                text[2 * index + 1] = digit(byte & 15)
            }
            return 2 * bytes.count
        }
    }

    private static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
