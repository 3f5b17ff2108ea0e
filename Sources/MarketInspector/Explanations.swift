import HTTPTypes

/// What the inspector tells a learner about a request, as values: the JSON twin says them in
/// English (`english`), the inspector's page in the visitor's language, both from these.

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

    var english: String {
        switch self {
        case .empty: "empty"
        case .jpeg: "a JPEG image"
        case .png: "a PNG image"
        case .gif: "a GIF image"
        case .webp: "a WebP image"
        case .heic: "a HEIC or other ISO media file"
        case .pdf: "a PDF document"
        case .text: "text"
        case .unknown: "unrecognised bytes"
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

    var english: String {
        switch self {
        case .crlfBeforeBoundary: "CRLF before the first boundary (ignored)"
        case .bytesBeforeBoundary(let count): "\(count) bytes before the first boundary (ignored)"
        case .noClosingBoundary(let boundary): "no closing boundary (--\(boundary)--): the body simply ends"
        case .bareLineFeeds: "lines end in LF alone, not CRLF"
        case .noSpaceAfterDisposition: "no space after Content-Disposition:"
        case .unquotedName: "a part's name is not in quotes"
        case .fileWithoutType(let part, let bytes):
            "file part \(part) has no Content-Type; its bytes are \(bytes.english)"
        case .fileTypeDiffers(let part, let declared, let bytes):
            "file part \(part) declares \(declared) but its bytes are \(bytes.english)"
        case .lenientJSON(let part):
            "\(part ?? "the body") is JSON a strict parser refuses (raw line breaks or quotes in text, an empty value or a trailing comma); it was read leniently"
        case .camelCaseKey(let key, let read): "camelCase key \(key) read as \(read)"
        case .numberAsText(let key, let text): "\(key) sent as text \"\(text)\" and read as a number"
        case .wholeNumber(let key, let sent, let read): "\(key) sent as \(sent) and read as the whole number \(read)"
        }
    }
}

/// Where a body went wrong so that the market could not find a part, with the bytes seen there.
enum Mistake: Codable, Sendable, Equatable {
    case otherBoundary(seen: String, boundary: String)
    case noBoundary(String)
    case boundaryLineNotEnded(boundary: String, seen: String)
    case headNotEnded(part: String, seen: String)

    var english: String {
        switch self {
        case .otherBoundary(let seen, let boundary):
            "the body's parts begin with \(seen), but Content-Type names boundary=\(boundary): "
                + "use one boundary in both places"
        case .noBoundary(let boundary):
            "the body has no --\(boundary) line: each part begins with --\(boundary) and a CRLF"
        case .boundaryLineNotEnded(let boundary, let seen):
            "after \(boundary) came “\(seen)” where the line ends: end each boundary line with a CRLF, then the part's head"
        case .headNotEnded(let part, let seen):
            "the head of part \(part) has no blank line after it, so “\(seen)” was read as more head: "
                + "put an empty line (CRLF CRLF) between a part's head and its bytes"
        }
    }
}

/// What a rehearsed fault did to a request.
struct RehearsedEffects: Codable, Sendable, Equatable {
    var heldBackMilliseconds: Int?
    /// The status the market answered without reaching its routes.
    var answered: Int?
    var dropped = false
    var trickledMilliseconds: Int?

    var english: String {
        var effects: [String] = []
        if let held = heldBackMilliseconds { effects.append("held back \(held) ms") }
        if let status = answered { effects.append("answered \(status) without reaching the market") }
        if dropped { effects.append("the connection was dropped without an answer") }
        if let trickled = trickledMilliseconds { effects.append("the answer trickled over \(trickled) ms") }
        return "Rehearsed: " + effects.joined(separator: "; ")
    }
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

    var english: String {
        switch self {
        case .emptyBody: "a 200 with an empty body: does your app cope with no data where it expects some?"
        case .proxyPage: "an HTML error page (502) as a proxy sends it, not JSON: does your app check the status first?"
        case .truncated(let kept, let total):
            "the JSON stops after \(kept) of \(total) bytes: does your app show an error rather than crash?"
        case .missingKey(let key): "\(key) was left out: does your Decodable fail, or take it as optional?"
        case .null(let key): "\(key) came as null: does your Decodable accept it?"
        case .numberAsText(let key, let text): "\(key) came as text (\"\(text)\"): does your Decodable accept it?"
        case .unknownCurrency(let currency):
            "currency came as \(currency), which your currency enum may not know: does your app still show the product?"
        case .extraKey(let key): "an extra key \(key) came along: your Decodable should ignore it"
        case .otherDate(let key, let text): "\(key) came in another format (\"\(text)\"): does your date decoding cope?"
        }
    }
}

/// What a refused request tried, so that the inspector shows the nearest shape that works.
enum RequestShape: String, Codable, Sendable, Equatable {
    case create, edit, issueSecret, delete, list, other

    init(method: HTTPRequest.Method, path: String) {
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

    var english: String {
        switch self {
        case .create:
            """
            POST /api/products with the header identifier: YOUR-IDENTIFIER and a multipart/form-data body:
            a part named params holding JSON such as
            {"name": "Film camera", "description": "Works well.", "price": 240000, "currency": "KRW",
             "discounted_price": 40000, "stock": 1, "secret": "YOUR-SECRET"}
            and one to five parts named images, each a JPEG, PNG, WebP or HEIC file of at most 10 MB.
            """
        case .edit:
            """
            PATCH /api/products/{id} with the header identifier: YOUR-IDENTIFIER, Content-Type: application/json
            and a JSON body with the fields to change and your secret, such as
            {"price": 200000, "discounted_price": 0, "secret": "YOUR-SECRET"}
            """
        case .issueSecret:
            """
            POST /api/products/{id}/secret with the header identifier: YOUR-IDENTIFIER and the JSON body
            {"secret": "YOUR-SECRET"}; the answer is the product's delete secret, as text.
            """
        case .delete:
            """
            DELETE /api/products/{id}/{product_secret} with the header identifier: YOUR-IDENTIFIER and no
            body, where product_secret is what POST /api/products/{id}/secret answered.
            """
        case .list:
            "GET /api/products?page_no=1&items_per_page=20 (page_no from 1; items_per_page from 1 to 200), or GET /api/products/{id}."
        case .other: "See GET /openapi.json for every request this market takes and its exact shape."
        }
    }
}
