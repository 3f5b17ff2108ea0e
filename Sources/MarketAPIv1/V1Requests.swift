import Foundation
import MarketCore
import MarketHTTPShared
import MarketModel

/// Reads the 2021 API's multipart text fields into domain values. Numbers arrive as text; the
/// discount arrives as the sale price, as `discounted_price` or `discountedPrice`.
enum V1Requests {
    /// The form's text parts as fields, so that they are read with the same forgiveness as JSON.
    static func fields(of form: MultipartForm) -> JSONFields {
        var members: [String: JSONValue] = [:]
        for part in form.parts where !part.name.hasPrefix("images") {
            members[part.name] = .string(
                String(decoding: part.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return JSONFields(members: members)
    }

    static func draft(from fields: JSONFields) throws(MarketError) -> ProductDraft {
        guard let title = try fields.text("title") else { throw MarketError.missing(.name) }
        guard let description = try fields.text("descriptions", "description") else {
            throw MarketError.missing(.description)
        }
        guard let price = try fields.wholeNumber("price") else { throw MarketError.missing(.price) }
        guard let currency = try fields.currency("currency") else { throw MarketError.missing(.currency) }
        guard let stock = try fields.wholeNumber("stock") else { throw MarketError.missing(.stock) }
        let salePrice = try fields.wholeNumber("discounted_price", "discountedPrice")
        let discount: Int64
        do {
            discount =
                try salePrice.map { salePrice throws(ValidationError) in
                    try MarketRules.discount(price: price, salePrice: salePrice)
                } ?? 0
        } catch {
            throw MarketError.invalid(error)
        }
        return ProductDraft(
            name: title, description: description, currency: currency, price: price, discount: discount, stock: stock)
    }

    static func changes(from fields: JSONFields) throws(MarketError) -> ProductChanges {
        ProductChanges(
            name: try fields.text("title"),
            description: try fields.text("descriptions", "description"),
            currency: try fields.currency("currency"),
            price: try fields.wholeNumber("price"),
            discount: try fields.wholeNumber("discounted_price", "discountedPrice").map { .salePrice($0) },
            stock: try fields.wholeNumber("stock"),
            priceChangeKeeps: .salePrice)
    }

    static func password(in fields: JSONFields) throws(MarketError) -> String {
        guard let password = try fields.text("password") else { throw MarketError.missing(.secret) }
        return password
    }
}
