import Foundation
import MarketModel

/// A picture of a rehearsed hard case. Its key is fixed (the hash of its name), so that every server of a market
/// knows it without having made it; the picture is drawn and kept the first time anyone asks for it, and again
/// whenever the sweep of unused pictures has taken it.
enum RehearsalPicture: Hashable, Sendable {
    /// Pictures of filler products, told apart by their colours.
    case filler(Int)
    case slow, huge, png, heic
    /// Never kept: its key answers 404. The missing product's picture has another key than its thumbnail, so that
    /// an app that shows both asks for each once.
    case missing, missingOriginal

    static let fillerCount = 6
    static let slowDelay: Duration = .seconds(3)

    private static let all: [RehearsalPicture] =
        (0..<fillerCount).map(RehearsalPicture.filler) + [.slow, .huge, .png, .heic, .missing, .missingOriginal]
    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    init?(key: String) {
        guard let picture = Self.byKey[key] else { return nil }
        self = picture
    }

    var key: String { Digest.sha256Hex(Data("openmarket hard case picture \(name)".utf8)) + "." + format.fileExtension }

    /// The case whose products show this picture; nil for the fillers.
    var hardCase: HardCase? {
        switch self {
        case .filler: nil
        case .slow: .slowPicture
        case .huge: .hugePicture
        case .png: .pngPicture
        case .heic: .heicPicture
        case .missing, .missingOriginal: .missingPicture
        }
    }

    private var name: String {
        switch self {
        case .filler(let number): "filler \(number)"
        case .slow: "slow"
        case .huge: "huge"
        case .png: "png"
        case .heic: "heic"
        case .missing: "missing"
        case .missingOriginal: "missing original"
        }
    }

    var format: ImageFormat {
        switch self {
        case .png: .png
        case .heic: .heic
        default: .jpeg
        }
    }

    var size: (width: Int, height: Int) {
        switch self {
        case .huge: (6000, 4000)
        default: (800, 600)
        }
    }

    /// How it is drawn; nil for the missing ones.
    var drawn: DrawnPicture? {
        let number: Int
        switch self {
        case .filler(let filler): number = filler
        case .slow: number = 1
        case .huge: number = 2
        case .png: number = 3
        case .heic: number = 4
        case .missing, .missingOriginal: return nil
        }
        let colours: [[Double]] = [
            [244, 162, 97], [42, 157, 143], [231, 111, 81], [38, 70, 83], [233, 196, 106], [130, 110, 200],
        ]
        return DrawnPicture(
            width: size.width, height: size.height, from: colours[number % colours.count],
            to: colours[(number + 3) % colours.count], dots: number % 4 + 1, format: format)
    }

    func image(id: Int64, at date: Date) -> ProductImage {
        ProductImage(
            id: id, originalKey: self == .missing ? Self.missingOriginal.key : key, thumbnailKey: key,
            width: size.width, height: size.height, createdAt: date)
    }
}
