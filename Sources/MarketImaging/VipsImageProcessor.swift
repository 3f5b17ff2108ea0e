import CVipsBridge
import Foundation
import MarketCore
import MarketModel

/// The market's image pipeline on libvips: sniff, decode, turn upright, strip, re-encode, thumbnail.
public struct VipsImageProcessor: ImageProcessor {
    public init() {}

    public func process(_ upload: Data) async throws -> ProcessedImage {
        guard let kind = UploadKind.sniff(upload) else {
            throw ImageRejection("is not a JPEG, PNG or WebP image")
        }
        try Vips.ensureStarted()
        return try await offload { try Self.normalize(upload, kind: kind) }
    }

    public func resize(_ image: Data, toWidth width: Int, as format: ImageFormat) async throws -> EncodedImage {
        try Vips.ensureStarted()
        return try await offload {
            var encoded = omk_encoded()
            var error: UnsafeMutablePointer<CChar>?
            let status = image.withUnsafeBytes { bytes in
                omk_resize(bytes.baseAddress, bytes.count, Int32(width), format.vips, &encoded, &error)
            }
            guard status == 0 else { throw ImageRejection(Vips.message(error)) }
            return Vips.take(encoded)
        }
    }

    private static func normalize(_ data: Data, kind: UploadKind) throws -> ProcessedImage {
        var original = omk_encoded()
        var thumbnail = omk_encoded()
        var error: UnsafeMutablePointer<CChar>?
        let status = data.withUnsafeBytes { bytes in
            omk_normalize(
                bytes.baseAddress, bytes.count, Int32(MarketRules.originalLongEdge),
                Int32(MarketRules.thumbnailLongEdge), Int64(MarketRules.maximumImagePixels), &original, &thumbnail,
                &error)
        }
        switch status {
        case OMK_OK:
            return ProcessedImage(original: Vips.take(original), thumbnail: Vips.take(thumbnail))
        case OMK_TOO_MANY_PIXELS:
            throw ImageRejection(
                "\(Vips.message(error)); an image may have at most \(MarketRules.maximumImagePixels) pixels",
                isTooLarge: true)
        default:
            // libvips' own words name its internals; the client learns what it can act on.
            if let error { omk_free(error) }
            throw ImageRejection("is damaged or not a whole \(kind.rawValue) image; send the picture again")
        }
    }
}

/// What the first bytes of an upload say it is. The declared type and filename say nothing.
enum UploadKind: String {
    case jpeg = "JPEG"
    case png = "PNG"
    case webp = "WebP"

    static func sniff(_ data: Data) -> UploadKind? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count == 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return nil
    }
}

extension ImageFormat {
    var vips: omk_format {
        switch self {
        case .jpeg: OMK_FORMAT_JPEG
        case .png: OMK_FORMAT_PNG
        case .webp: OMK_FORMAT_WEBP
        }
    }
}
