import CVipsBridge
import Foundation
import MarketCore

/// The process-wide libvips, started on first use.
enum Vips {
    private static let started: Bool = omk_start() == 0

    /// Whether this libvips was built to read HEIF (Debian's is, through libheif).
    static let readsHEIF: Bool = omk_reads_heif() != 0

    static func ensureStarted() throws {
        guard started else { throw ImageRejection(.unreadable("cannot be read: libvips did not start")) }
    }

    /// Starts libvips, has `encode` write into a result, and copies it out of libvips' memory, which it frees;
    /// a failure throws `rejection`, or else libvips' message.
    static func encoded(
        rejection: ImageRejection? = nil,
        _ encode: (UnsafeMutablePointer<omk_encoded>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
    ) throws -> EncodedImage {
        try ensureStarted()
        var encoded = omk_encoded()
        var error: UnsafeMutablePointer<CChar>?
        guard encode(&encoded, &error) == 0 else {
            let reason = message(error)  // frees `error` either way
            throw rejection ?? ImageRejection(.unreadable(reason))
        }
        defer { omk_free(encoded.data) }
        return EncodedImage(
            data: Data(bytes: encoded.data, count: encoded.length),
            format: encoded.format == OMK_FORMAT_PNG ? .png : encoded.format == OMK_FORMAT_WEBP ? .webp : .jpeg,
            width: Int(encoded.width), height: Int(encoded.height))
    }

    static func message(_ error: UnsafeMutablePointer<CChar>?) -> String {
        guard let error else { return "unknown libvips error" }
        defer { omk_free(error) }
        return String(cString: error).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
