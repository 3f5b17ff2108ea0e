import Foundation
import MarketModel

/// Turns uploads into the images the market serves: decoded, upright, stripped of metadata, re-encoded and thumbnailed.
public protocol ImageProcessor: Sendable {
    /// Throws an `ImageRejection` when the bytes are not an image the market accepts. Blocking work runs in `steps`.
    func process(_ upload: Data, in steps: ImageSteps) async throws -> ProcessedImage
    /// The width and height a picture's header announces, from its first bytes, without decoding it; nil for
    /// bytes that are no picture the market reads.
    func size(of picture: Data) -> (width: Int, height: Int)?
    /// A stored image at `width` pixels (never wider than it is) in `format`, for pages asking the size they show.
    func resize(_ image: Data, toWidth width: Int, as format: ImageFormat, in steps: ImageSteps) async throws
        -> EncodedImage
    /// A picture made from nothing: a diagonal gradient with a row of dots.
    func draw(_ picture: DrawnPicture, in steps: ImageSteps) async throws -> EncodedImage
}

/// What `ImageProcessor.draw` makes. Colours are RGB triples from 0 to 255.
public struct DrawnPicture: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var from: [Double]
    public var to: [Double]
    public var dots: Int
    public var format: ImageFormat

    public init(width: Int, height: Int, from: [Double], to: [Double], dots: Int = 0, format: ImageFormat = .jpeg) {
        (self.width, self.height, self.from, self.to, self.dots, self.format) = (width, height, from, to, dots, format)
    }
}

/// Keeps image blobs under keys the market chooses (content hashes, so a key's bytes never change).
///
/// Only a later sweep removes blobs, and only those no image row names and nobody has put for a while. Putting
/// an existing blob counts as using it, so a create reusing a blob just after a delete dropped its last row keeps it.
public protocol ImageStore: Sendable {
    /// Stores the bytes under `key`, or marks the blob already there as just used.
    func put(_ data: Data, key: String) async throws
    /// Where the blob's bytes are to be had, or nil when no blob has that key.
    func content(forKey key: String) async throws -> ImageContent?
    /// Keys of the blobs nobody has put for at least `interval`.
    func keys(unusedFor interval: Duration) async throws -> [String]
    /// Removes the blob unless it was put within `interval`; returns whether it went.
    func remove(key: String, ifUnusedFor interval: Duration) async throws -> Bool
    func checkWritable() async throws
}

/// How a stored image reaches a client: its bytes, or an address that serves them (a store
/// such as S3 would hand out a signed URL instead of passing the bytes through the market).
public enum ImageContent: Sendable, Equatable {
    case bytes(Data)
    case redirect(URL)
}

/// What the first bytes of an upload say it is. The declared type and filename say nothing.
public enum UploadKind: String, Sendable {
    case jpeg = "JPEG", png = "PNG", webp = "WebP"
    /// What iPhones take: decoded where libvips reads HEIF, and kept as a JPEG.
    case heif = "HEIC"

    /// The brands of an ISO media file (its `ftyp` box) whose pictures are HEIF.
    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    public static func sniff(_ data: Data) -> UploadKind? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        guard bytes.count == 12 else { return nil }
        if bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        guard bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        return heifBrands.contains(String(decoding: bytes[8..<12], as: UTF8.self)) ? .heif : nil
    }
}

public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png
    /// Only for the smaller copies pages ask for: what the APIs serve stays JPEG or PNG.
    case webp
    /// Only for a rehearsed hard case's picture: uploads in HEIC are kept as JPEG.
    case heic

    /// "jpg" for a JPEG, else the format's name; "jpeg" names no format.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    public var mediaType: String { "image/\(rawValue)" }

    public init?(fileExtension: String) {
        guard let format = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = format
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

public struct ImageRejection: Error, Sendable, Equatable {
    public var rule: Rule
    /// Too many pixels: the upload is an image, only too large a one.
    public var isTooLarge: Bool { if case .tooManyPixels = rule { true } else { false } }

    public init(_ rule: Rule) { self.rule = rule }
}

extension Duration {
    public var seconds: TimeInterval { TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18 }
}
