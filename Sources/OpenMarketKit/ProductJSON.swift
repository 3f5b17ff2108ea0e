import Foundation
import MarketModel

/// The JSON bodies the kit sends, in the 2022 API's spelling.
enum ProductJSON {
    static func create(_ draft: ProductDraft, secret: String) -> [String: Any] {
        [
            "name": draft.name, "description": draft.description, "currency": draft.currency.rawValue,
            "price": draft.price, "discounted_price": draft.discount, "stock": draft.stock, "secret": secret,
        ]
    }

    static func update(_ changes: ProductChanges, secret: String) throws -> [String: Any] {
        var json: [String: Any] = ["secret": secret]
        json["name"] = changes.name
        json["description"] = changes.description
        json["currency"] = changes.currency?.rawValue
        json["price"] = changes.price
        json["stock"] = changes.stock
        json["thumbnail_id"] = changes.coverImageID
        switch changes.discount {
        case .amount(let amount)?: json["discounted_price"] = amount
        case .salePrice(let salePrice)?:
            // The 2022 API takes the discount; from a sale price it follows only with the price.
            guard let price = changes.price else {
                throw OpenMarketError.decoding("a sale price needs the price it is taken from")
            }
            json["discounted_price"] = price - salePrice
        case nil: break
        }
        return json
    }
}

/// A `multipart/form-data` body as the server expects it: one JSON `params` part, then `images`.
struct MultipartForm {
    let boundary = "OpenMarketKit-\(UUID().uuidString)"
    var body = Data()

    init(params: Data, images: [Data]) {
        append(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n"
        )
        body.append(params)
        for (index, image) in images.enumerated() {
            let (type, fileExtension) = Self.kind(of: image)
            append(
                "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image\(index).\(fileExtension)\"\r\n"
                    + "Content-Type: \(type)\r\n\r\n")
            body.append(image)
        }
        append("\r\n--\(boundary)--\r\n")
    }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    private mutating func append(_ text: String) { body.append(Data(text.utf8)) }

    private static func kind(of image: Data) -> (String, String) {
        if image.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return ("image/png", "png") }
        if image.starts(with: Array("RIFF".utf8)) { return ("image/webp", "webp") }
        return ("image/jpeg", "jpg")
    }
}
