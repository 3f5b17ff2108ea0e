import Crypto
import Foundation
import HummingbirdBcrypt
import Metrics
import Synchronization

/// Hashes vendor secrets with bcrypt (slow and salted) and checks them. bcrypt's own check compares in constant time.
/// An app sends the same right secret with every edit and delete: one that matched a stored hash, and has been sent
/// again in the ten minutes since it was last, is recognised in memory rather than by bcrypt again. A wrong secret
/// always costs a full check.
public struct SecretHasher: Sendable {
    public static let defaultCost: UInt8 = 10
    /// bcrypt reads only this many bytes of a secret.
    public static let maximumSecretBytes = 72

    public var cost: UInt8
    /// Secrets that matched a stored hash, as keyed hashes of the pair, kept ten minutes from their last use: one is of
    /// no use once the stored hash changes with the secret.
    private let recentMatches = SecretMemory(lifetime: 600, capacity: 4096)

    public init(cost: UInt8 = SecretHasher.defaultCost) { self.cost = cost }

    public func hash(_ secret: String) async throws -> String {
        let (cost, secret) = (cost, Self.normalized(secret))
        return try await offload { Bcrypt.hash(secret, cost: cost) }
    }

    public func verify(_ secret: String, against hash: String) async throws -> Bool {
        let secret = Self.normalized(secret)
        let match = recentMatches.tag(hash, secret)
        if recentMatches.recalls(match, at: Date()) {
            Self.checksInMemory.increment()
            return true
        }
        let matches = try await offload { Bcrypt.verify(secret, hash: hash) }
        Self.checksByBcrypt.increment()
        if matches { recentMatches.remember(match, at: Date()) }
        return matches
    }

    /// One rule for every secret and password, wherever it is set or checked: white space around
    /// it is not part of it (form fields arrive trimmed, JSON bodies as typed).
    static func normalized(_ secret: String) -> String { secret.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// A hash of a secret nobody knows, checked against when a vendor is unknown so that a wrong
    /// identifier costs as long as a wrong secret.
    static let decoy = Bcrypt.hash(UUID().uuidString, cost: defaultCost)

    static let checksByBcrypt = Counter(label: "openmarket_secret_checks", dimensions: [("by", "bcrypt")])
    static let checksInMemory = Counter(label: "openmarket_secret_checks", dimensions: [("by", "memory")])
}

/// Secrets recognised for a while, each kept only as a keyed hash under a key made when the process starts (never the
/// secret, never written anywhere): forgotten on a restart, and bounded in number.
final class SecretMemory: Sendable {
    typealias Tag = Data

    let lifetime: TimeInterval
    let capacity: Int
    private let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    private let tags = Mutex<[Tag: Date]>([:])

    init(lifetime: TimeInterval, capacity: Int) {
        (self.lifetime, self.capacity) = (lifetime, capacity)
    }

    /// The keyed hash of `parts` (a stored hash and a secret, a throttle's key and a secret).
    func tag(_ parts: String...) -> Tag {
        Data(
            HMAC<SHA256>.authenticationCode(
                for: Data(parts.joined(separator: "\u{0}").utf8), using: SymmetricKey(data: key)))
    }

    /// Whether `tag` is remembered at `now`. One that is stays for another `lifetime` from `now`: a secret an app sends
    /// all lesson long is never checked by bcrypt again, for every team at the same moment, when its first lifetime ends.
    func recalls(_ tag: Tag, at now: Date) -> Bool {
        tags.withLock { tags in
            guard let until = tags[tag], until > now else { return false }
            tags[tag] = now.addingTimeInterval(lifetime)
            return true
        }
    }

    /// Remembers `tag` until `lifetime` from `now`; whether it was new. When full of tags still remembered, a new one
    /// is not kept (and so counts as new again the next time).
    @discardableResult
    func remember(_ tag: Tag, at now: Date) -> Bool {
        tags.withLock { tags in
            let known = tags[tag].map { $0 > now } ?? false
            if tags.count >= capacity { tags = tags.filter { $0.value > now } }
            if tags.count < capacity { tags[tag] = now.addingTimeInterval(lifetime) }
            return !known
        }
    }
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
