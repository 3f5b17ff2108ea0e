import Foundation
import MarketCore
import MarketHTTPShared
import MarketModel

/// Reads the 2022 API's requests into domain values, accepting every spelling real clients used:
/// `descriptions` or `description`, `discounted_price` or `discountedPrice`, `thumbnail_id`,
/// `thumbnailId` or `thumbnailID`, numbers as text.
enum V2Requests {
    static func draft(from params: JSONFields) throws(MarketError) -> ProductDraft {
        guard let name = try params.text("name") else { throw MarketError.missing(.name) }
        guard let description = try params.text("descriptions", "description") else {
            throw MarketError.missing(.description)
        }
        guard let price = try params.wholeNumber("price") else { throw MarketError.missing(.price) }
        guard let currency = try params.currency("currency") else { throw MarketError.missing(.currency) }
        return ProductDraft(
            name: name, description: description, currency: currency, price: price,
            discount: try params.wholeNumber("discounted_price", "discountedPrice") ?? 0,
            stock: try params.wholeNumber("stock") ?? 0)
    }

    static func changes(from body: JSONFields) throws(MarketError) -> ProductChanges {
        ProductChanges(
            name: try body.text("name"),
            description: try body.text("descriptions", "description"),
            currency: try body.currency("currency"),
            price: try body.wholeNumber("price"),
            discount: try body.wholeNumber("discounted_price", "discountedPrice").map { .amount($0) },
            stock: try body.wholeNumber("stock"),
            coverImageID: try body.wholeNumber("thumbnail_id", "thumbnailId", "thumbnailID"))
    }

    static func secret(in body: JSONFields) throws(MarketError) -> String {
        guard let secret = try body.text("secret") else { throw MarketError.missing(.secret) }
        return secret
    }

    /// The body of `/secret` and `/archived`: `{"secret": "…"}`, or the secret alone as a JSON string.
    static func bareOrObjectSecret(from body: Data) throws(MarketError) -> String {
        switch try JSONFields.parse(body, part: "body") {
        case .string(let secret) where !secret.isEmpty:
            return secret
        case .object(let members):
            guard let secret = try JSONFields(members: members).text("secret") else {
                throw MarketError.missing(.secret)
            }
            return secret
        default:
            throw MarketError.missing(.secret)
        }
    }

    static func page(from query: [String: String]) throws(MarketError) -> PageRequest {
        PageRequest(
            number: try number(query, "page_no", "page-no") ?? 1,
            itemsPerPage: try number(query, "items_per_page", "items-per-page") ?? 20,
            after: try number(query, "after").map(Int64.init))
    }

    /// The optional `sort`: one of `ProductArrangement.Order`'s names; without it, newest first.
    static func arrangement(from query: [String: String]) throws(MarketError) -> ProductArrangement {
        guard let text = query["sort"], !text.isEmpty else { return .asListed }
        guard let order = ProductArrangement.Order(rawValue: text) else {
            let names = ProductArrangement.Order.allCases.map(\.rawValue).joined(separator: ", ")
            throw MarketError(.invalid, field: .sent("sort"), rule: "must be one of \(names), not \"\(text)\"")
        }
        return ProductArrangement(order: order)
    }

    private static func number(_ query: [String: String], _ keys: String...) throws(MarketError) -> Int? {
        guard let (key, text) = keys.lazy.compactMap({ key in query[key].map { (key, $0) } }).first,
            !text.isEmpty
        else { return nil }
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let value = Int(text)
        else {
            throw MarketError(.invalid, field: .sent(key), rule: "must be a whole number, not \"\(text)\"")
        }
        return value
    }
}
