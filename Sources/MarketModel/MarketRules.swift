import Foundation

/// The limits every product obeys, whichever way it comes in (API v1, API v2, storefront,
/// OpenMarketKit). Clients show these too, so they live in this dependency-free module.
public enum MarketRules {
    public static let nameLength = 1...100
    public static let maximumDescriptionLength = 1000
    public static let imagesPerProduct = 1...5
    /// The largest amount or stock a JSON number carries exactly as a double (2^53 − 1).
    public static let maximumAmount: Int64 = 9_007_199_254_740_991
    public static let maximumImageBytes = 10 * 1024 * 1024
    public static let maximumImagePixels = 50_000_000
    public static let originalLongEdge = 2048
    public static let thumbnailLongEdge = 400

    public static func validName(_ name: String) throws(ValidationError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ValidationError(field: .name, rule: .notEmpty) }
        if let control = firstControlCharacter(in: trimmed, allowing: []) {
            throw ValidationError(field: .name, rule: .noControlCharacter(control))
        }
        guard nameLength.contains(trimmed.count) else {
            throw ValidationError(field: .name, rule: .maximumCharacters(nameLength.upperBound))
        }
        return trimmed
    }

    /// A description says something: the API requires one, and so does every adapter.
    public static func validDescription(_ text: String) throws(ValidationError) -> String {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ValidationError(field: .description, rule: .notEmpty)
        }
        guard text.count <= maximumDescriptionLength else {
            throw ValidationError(field: .description, rule: .maximumCharacters(maximumDescriptionLength))
        }
        if let control = firstControlCharacter(in: text, allowing: lineBreaksAndTabs) {
            throw ValidationError(field: .description, rule: .noControlCharacter(control))
        }
        return text
    }

    /// What a description may hold of the control characters: its line breaks and tabs.
    public static let lineBreaksAndTabs: Set<Unicode.Scalar> = ["\n", "\r", "\t"]

    /// The first control character (U+0000–U+001F, U+007F–U+009F) outside `allowed`, as U+XXXX, or nil. These are
    /// refused rather than stored: some stores cut text at a NUL, and none of them prints.
    public static func firstControlCharacter(in text: String, allowing allowed: Set<Unicode.Scalar>) -> String? {
        text.unicodeScalars.first { $0.properties.generalCategory == .control && !allowed.contains($0) }
            .map { String(format: "U+%04X", $0.value) }
    }

    public static func validAmount(_ value: Int64, field: MarketField) throws(ValidationError) -> Int64 {
        guard value >= 0 else { throw ValidationError(field: field, rule: .notNegative) }
        guard value <= maximumAmount else { throw ValidationError(field: field, rule: .atMost(maximumAmount)) }
        return value
    }

    public static func validDiscount(_ discount: Int64, price: Int64) throws(ValidationError) -> Int64 {
        let discount = try validAmount(discount, field: .discount)
        guard discount <= price else { throw ValidationError(field: .discount, rule: .notAbovePrice(price)) }
        return discount
    }

    /// The discount that makes a buyer pay `salePrice`, which the 2021 API sends where the 2022 API sends a discount.
    public static func discount(price: Int64, salePrice: Int64) throws(ValidationError) -> Int64 {
        try price - validDiscount(salePrice, price: price)
    }

    /// `minimum` is 1, or 0 where a dialect's apps could post without pictures (the 2021 API).
    public static func validImageCount(_ count: Int, minimum: Int = imagesPerProduct.lowerBound) throws(ValidationError)
    {
        guard count >= minimum else { throw ValidationError(field: .images, rule: .minimumImages(minimum)) }
        guard count <= imagesPerProduct.upperBound else {
            throw ValidationError(field: .images, rule: .maximumImages(imagesPerProduct.upperBound))
        }
    }
}
