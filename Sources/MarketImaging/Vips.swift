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
