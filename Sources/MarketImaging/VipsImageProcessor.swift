import CVipsBridge
import Foundation
import MarketCore
import MarketModel

/// The market's image pipeline on libvips: sniff, decode, turn upright, strip, re-encode, thumbnail.
public struct VipsImageProcessor: ImageProcessor {
    public init() {}

    /// Decodes the upload in one step, then encodes the original and the thumbnail from that one
    /// decoded picture in two more that may run side by side.
    public func process(_ upload: Data, in steps: ImageSteps) async throws -> ProcessedImage {
        guard let kind = UploadKind.sniff(upload) else { throw ImageRejection(.notAnImage) }
        try Vips.ensureStarted()
        if kind == .heif, !Vips.readsHEIF { throw ImageRejection(.heicUnreadable) }
        let picture = try await steps.run { try DecodedPicture(upload, kind: kind) }
        async let original = steps.run { try picture.encoded(longEdge: nil) }
        async let thumbnail = steps.run { try picture.encoded(longEdge: MarketRules.thumbnailLongEdge) }
        return ProcessedImage(original: try await original, thumbnail: try await thumbnail)
    }

    public func size(of picture: Data) -> (width: Int, height: Int)? {
        guard (try? Vips.ensureStarted()) != nil, UploadKind.sniff(picture) != nil else { return nil }
        var (width, height): (Int32, Int32) = (0, 0)
        let status = picture.withUnsafeBytes { omk_size($0.baseAddress, $0.count, &width, &height) }
        return status == 0 ? (Int(width), Int(height)) : nil
    }

    public func resize(_ image: Data, toWidth width: Int, as format: ImageFormat, in steps: ImageSteps) async throws
        -> EncodedImage
    {
        try await steps.run {
            try Vips.encoded { encoded, error in
                image.withUnsafeBytes {
                    omk_resize($0.baseAddress, $0.count, Int32(width), format.vips, encoded, error)
                }
            }
        }
    }

    public func draw(_ picture: DrawnPicture, in steps: ImageSteps) async throws -> EncodedImage {
        try Vips.ensureStarted()
        let data = try await steps.run {
            try ImageSynthesizer.picture(
                width: picture.width, height: picture.height, from: picture.from, to: picture.to, dots: picture.dots,
                format: picture.format)
        }
        return EncodedImage(data: data, format: picture.format, width: picture.width, height: picture.height)
    }
}

/// An upload decoded, upright, in sRGB and shrunk to the original's size, in libvips' memory until its last encoding.
private final class DecodedPicture: @unchecked Sendable {
    // libvips never changes a decoded picture, and several threads may read it at once.
    private let picture: OpaquePointer

    init(_ upload: Data, kind: UploadKind) throws {
        var picture: OpaquePointer?
        var error: UnsafeMutablePointer<CChar>?
        let status = upload.withUnsafeBytes { bytes in
            omk_decode(
                bytes.baseAddress, bytes.count, Int32(MarketRules.originalLongEdge),
                Int64(MarketRules.maximumImagePixels), &picture, &error)
        }
        switch (status, picture) {
        case (OMK_OK, let picture?):
            self.picture = picture
        case (OMK_TOO_MANY_PIXELS, _):
            throw ImageRejection(.tooManyPixels(detail: Vips.message(error), limit: MarketRules.maximumImagePixels))
        default:
            // libvips' own words name its internals; the client learns what it can act on.
            if let error { omk_free(error) }
            throw ImageRejection(.damaged(format: kind.rawValue))
        }
    }

    deinit { omk_release(picture) }

    /// The picture encoded as it is, or shrunk to fit `longEdge`.
    func encoded(longEdge: Int?) throws -> EncodedImage {
        // libvips started before this picture was decoded; its message names its internals, so it is not passed on.
        try Vips.encoded(rejection: ImageRejection(.notReencoded)) {
            omk_encode_picture(picture, Int32(longEdge ?? 0), $0, $1)
        }
    }
}

extension ImageFormat {
    var vips: omk_format {
        switch self {
        case .jpeg: OMK_FORMAT_JPEG
        case .png: OMK_FORMAT_PNG
        case .webp: OMK_FORMAT_WEBP
        case .heic: OMK_FORMAT_HEIF
        }
    }
}
