import Foundation

/// A vendor identifier: a UUID, kept and compared in lowercase.
public enum VendorIdentifier {
    public static func normalized(_ identifier: String) -> String {
        identifier.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    public static func validated(_ identifier: String) throws -> String {
        let normalized = normalized(identifier)
        guard UUID(uuidString: normalized) != nil else {
            throw MarketError(.invalid, field: .identifier, rule: .uuid(example: generate()))
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

    /// The fewest characters a secret that a person chooses may have (about 41 bits in letters and digits).
    public static let minimumChosenLength = 8

    public static func validateChosen(_ secret: String) throws {
        try validate(secret)
        guard secret.trimmingCharacters(in: .whitespacesAndNewlines).count >= minimumChosenLength else {
            throw MarketError(.invalid, field: .secret, rule: .minimumLength(minimumChosenLength))
        }
    }

    public static func validate(_ secret: String) throws {
        guard !secret.isEmpty else { throw MarketError.missing(.secret) }
        guard secret.utf8.count <= SecretHasher.maximumSecretBytes else {
            throw MarketError(.invalid, field: .secret, rule: .maximumBytes(SecretHasher.maximumSecretBytes))
        }
    }
}

/// The name of a stored image blob: the SHA-256 of its bytes and the format's extension.
public enum ImageKey {
    public static func make(for image: EncodedImage) -> String {
        Digest.sha256Hex(image.data) + "." + image.format.fileExtension
    }

    public static func isValid(_ key: String) -> Bool {
        format(of: key) != nil && (isHash(name(of: key)) || variant(key) != nil)
    }

    /// The name without its format: the bytes' hash (for a copy, with its width).
    public static func name(of key: String) -> Substring {
        key.utf8.firstIndex(of: UInt8(ascii: ".")).map { key[..<$0] } ?? key[...]
    }

    public static func format(of key: String) -> ImageFormat? {
        let name = key.utf8.lastIndex(of: UInt8(ascii: ".")).map { key[key.utf8.index(after: $0)...] } ?? key[...]
        return ImageFormat(fileExtension: String(name))
    }

    // MARK: Smaller copies

    /// The widths pages ask for: a phone's screen, twice that, and a large screen's half.
    public static let variantWidths = [400, 800, 1600]

    /// The key of `key`'s copy `width` pixels wide in `format` (`<hash>-w800.webp`); with no width, a copy as wide
    /// as the image itself, only ever in WebP since originals are JPEG or PNG (`<hash>.webp`).
    public static func variant(of key: String, width: Int?, format: ImageFormat) -> String {
        "\(name(of: key))\(width.map { "-w\($0)" } ?? "").\(format.fileExtension)"
    }

    /// What a copy's key names: its source image's hash, its width (nil for the image's own) and its format.
    public static func variant(_ key: String) -> (hash: String, width: Int?, format: ImageFormat)? {
        // Read by hand: pages name several copies per photo, and a regex is compiled on every use.
        let parts = key.split(separator: ".")
        guard parts.count == 2, let format = ImageFormat(fileExtension: String(parts[1])), format != .heic else {
            return nil
        }
        if isHash(parts[0]) { return format == .webp ? (String(parts[0]), nil, format) : nil }
        let name = parts[0].split(separator: "-")
        guard name.count == 2, isHash(name[0]), name[1].first == "w" else { return nil }
        let digits = name[1].dropFirst()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let width = Int(digits), variantWidths.contains(width)
        else { return nil }
        return (String(name[0]), width, format)
    }

    /// The keys a copy may be made from: its photo as JPEG or as PNG.
    public static func sourceKeys(ofVariant hash: String) -> [String] { [hash + ".jpg", hash + ".png"] }

    /// 64 digits of lowercase hex, compared as bytes: every image request asks.
    private static func isHash(_ text: Substring) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }
}
