import Foundation

/// A vendor identifier: a UUID, kept and compared in lowercase.
public enum VendorIdentifier {
    public static func normalized(_ identifier: String) -> String {
        identifier.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    public static func validated(_ identifier: String) throws -> String {
        let normalized = normalized(identifier)
        guard UUID(uuidString: normalized) != nil else {
            throw MarketError(.invalid, field: .identifier, rule: "must be a UUID such as \(generate())")
        }
        return normalized
    }

    public static func generate() -> String { UUID().uuidString.lowercased() }
}

/// A vendor secret: what proves a vendor, stored only as a bcrypt hash.
public enum VendorSecret {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    /// 16 lowercase letters and digits, the style of the 2022 market (about 82 bits).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<16).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// The fewest characters a secret that a person chooses may have (about 41 bits in letters and
    /// digits); generated secrets have 16.
    public static let minimumChosenLength = 8

    public static func validateChosen(_ secret: String) throws {
        try validate(secret)
        guard secret.trimmingCharacters(in: .whitespacesAndNewlines).count >= minimumChosenLength else {
            throw MarketError(.invalid, field: .secret, rule: "must be at least \(minimumChosenLength) characters")
        }
    }

    public static func validate(_ secret: String) throws {
        guard !secret.isEmpty else { throw MarketError.missing(.secret) }
        guard secret.utf8.count <= SecretHasher.maximumSecretBytes else {
            throw MarketError(
                .invalid, field: .secret, rule: "must be at most \(SecretHasher.maximumSecretBytes) bytes")
        }
    }
}

/// The name of a stored image blob: the SHA-256 of its bytes and the format's extension.
public enum ImageKey {
    public static func make(for image: EncodedImage) -> String {
        Digest.sha256Hex(image.data) + "." + image.format.fileExtension
    }

    public static func isValid(_ key: String) -> Bool {
        let parts = key.split(separator: ".")
        return parts.count == 2 && parts[0].count == 64 && parts[0].allSatisfy(\.isHexDigit)
            && parts[0] == parts[0].lowercased() && ImageFormat(fileExtension: String(parts[1])) != nil
    }
}
