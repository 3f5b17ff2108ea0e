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

    /// Starts libvips, has `encode` write into a result, and takes it; a failure throws libvips' message.
    static func encoded(
        _ encode: (UnsafeMutablePointer<omk_encoded>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
    ) throws -> EncodedImage {
        try ensureStarted()
        var encoded = omk_encoded()
        var error: UnsafeMutablePointer<CChar>?
        guard encode(&encoded, &error) == 0 else { throw ImageRejection(.unreadable(message(error))) }
        return take(encoded)
    }

    /// Copies an encoded result out of libvips' memory and frees it.
    static func take(_ encoded: omk_encoded) -> EncodedImage {
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
