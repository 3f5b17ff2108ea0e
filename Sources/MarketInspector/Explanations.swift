import HTTPTypes
import MarketCore

/// What the inspector tells a learner about a request, as values: the inspector's page says them in the
/// visitor's language and the JSON twin in English (`Localization.english`), both from the inspector's phrases.

/// What the bytes of a part are, whatever the part says.
enum Sniffed: String, Codable, Sendable, Equatable {
    case empty, jpeg, png, gif, webp, heic, pdf, text, unknown

    init(_ bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(12))
        self =
            if bytes.isEmpty {
                .empty
            } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
                .jpeg
            } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                .png
            } else if head.starts(with: Array("GIF8".utf8)) {
                .gif
            } else if head.starts(with: Array("RIFF".utf8)), head.count == 12, head[8..<12].elementsEqual("WEBP".utf8) {
                .webp
            } else if head.count == 12, head[4..<8].elementsEqual("ftyp".utf8) {
                .heic
            } else if head.starts(with: Array("%PDF".utf8)) {
                .pdf
            } else if String(validating: Array(bytes.prefix(4096)), as: UTF8.self) != nil {
                .text
            } else {
                .unknown
            }
    }

    /// What a picture's declared type says its bytes are.
    init?(declared type: String) {
        switch type.lowercased() {
        case "image/jpeg", "image/jpg": self = .jpeg
        case "image/png": self = .png
        case "image/webp": self = .webp
        case "image/gif": self = .gif
        case "image/heic": self = .heic
        default: return nil
        }
    }

    /// The file name extension a resent part is given.
    var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png, .gif, .webp, .heic, .pdf: rawValue
        case .empty, .text, .unknown: "bin"
        }
    }
}

/// A liberty a request took that the market forgave.
enum Quirk: Codable, Sendable, Equatable {
    case crlfBeforeBoundary
    case bytesBeforeBoundary(Int)
    case noClosingBoundary(String)
    case bareLineFeeds
    case noSpaceAfterDisposition
    case unquotedName
    case fileWithoutType(part: String, bytes: Sniffed)
    case fileTypeDiffers(part: String, declared: String, bytes: Sniffed)
    /// The `params` part, or the body when nil.
    case lenientJSON(part: String?)
    case camelCaseKey(String, read: String)
    case numberAsText(key: String, text: String)
    case wholeNumber(key: String, sent: String, read: Int64)
}

/// Where a body went wrong so that the market could not find a part, with the bytes seen there.
enum Mistake: Codable, Sendable, Equatable {
    case otherBoundary(seen: String, boundary: String)
    case noBoundary(String)
    case boundaryLineNotEnded(boundary: String, seen: String)
    case headNotEnded(part: String, seen: String)
}

/// An answer that is no text (a picture, most often): what its bytes are, how many, and a picture's size.
struct AnswerBytes: Codable, Sendable, Equatable {
    var sniffed: Sniffed
    var bytes: Int
    var width: Int?
    var height: Int?
}

struct RehearsedEffects: Codable, Sendable, Equatable {
    var heldBackMilliseconds: Int?
    /// The status the market answered without reaching its routes.
    var answered: Int?
    var dropped = false
    var trickledMilliseconds: Int?
}

/// How an answer was broken on purpose, and what that asks of the learner's app.
enum BrokenSaid: Codable, Sendable, Equatable {
    case emptyBody
    case proxyPage
    case truncated(kept: Int, total: Int)
    case missingKey(String)
    case null(String)
    case numberAsText(String, text: String)
    case unknownCurrency(String)
    case extraKey(String)
    case otherDate(String, text: String)
}

/// What a refused request tried, so that the inspector shows the nearest shape that works.
enum RequestShape: String, Codable, Sendable, Equatable {
    case create, edit, issueSecret, delete, list, other

    /// Through a team address the path is the same request's behind `/teams/<vendor_id>`.
    init(method: HTTPRequest.Method, path: String) {
        let path = TeamAddress.split(path[...])?.rest ?? path[...]
        let segments = path.split(separator: "?").first.map { $0.lowercased().split(separator: "/") } ?? []
        self =
            switch (method, segments.count > 2 ? Array(segments.prefix(2)) : segments) {
            case (.post, ["api", "products"]) where segments.count == 2: .create
            case (.patch, ["api", "products"]): .edit
            case (.post, ["api", "products"]): .issueSecret
            case (.delete, ["api", "products"]): .delete
            case (.get, ["api", "products"]): .list
            default: .other
            }
    }
}
