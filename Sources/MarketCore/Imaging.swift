import Foundation

/// Turns uploaded bytes into the images the market serves: decoded, upright, stripped of metadata,
/// re-encoded and thumbnailed.
public protocol ImageProcessor: Sendable {
    /// Throws an `ImageRejection` when the bytes are not an image the market accepts.
    func process(_ upload: Data) async throws -> ProcessedImage
}

/// Keeps image blobs under keys the market chooses.
public protocol ImageStore: Sendable {
    /// Stores the bytes under `key`; returns false when a blob with that key was already there.
    func put(_ data: Data, key: String) async throws -> Bool
    func data(forKey key: String) async throws -> Data?
    func remove(key: String) async throws
}

public enum ImageFormat: String, Sendable {
    case jpeg
    case png

    public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    public var mediaType: String { "image/\(rawValue)" }

    public init?(fileExtension: String) {
        switch fileExtension {
        case "jpg": self = .jpeg
        case "png": self = .png
        default: return nil
        }
    }
}

public struct EncodedImage: Sendable {
    public var data: Data
    public var format: ImageFormat
    public var width: Int
    public var height: Int

    public init(data: Data, format: ImageFormat, width: Int, height: Int) {
        self.data = data
        self.format = format
        self.width = width
        self.height = height
    }
}

public struct ProcessedImage: Sendable {
    public var original: EncodedImage
    public var thumbnail: EncodedImage

    public init(original: EncodedImage, thumbnail: EncodedImage) {
        self.original = original
        self.thumbnail = thumbnail
    }
}

/// Why an upload is not accepted as an image.
public struct ImageRejection: Error, Sendable, Equatable {
    public var reason: String
    public var isTooLarge: Bool

    public init(_ reason: String, isTooLarge: Bool = false) {
        self.reason = reason
        self.isTooLarge = isTooLarge
    }
}
