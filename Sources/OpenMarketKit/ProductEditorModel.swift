import Foundation
import MarketModel
import Observation

/// The register and edit screens: fields as typed, checked with the market's own rules
/// (`MarketRules`, shared with the server), the fields an edit changed, up to five pictures each
/// shrunk to a byte budget by a hook the app provides, and the server's verdict next to its field.
@MainActor @Observable
public final class ProductEditorModel {
    public enum Field: String, Sendable, CaseIterable {
        case name, description, price, discount, stock, currency, images
    }

    /// Shrinks a picture to at most the given number of bytes (an app re-encodes it; the apps
    /// used 300 KB).
    public typealias ImageShrinker = @Sendable (_ image: Data, _ byteBudget: Int) async throws -> Data

    public static let imageByteBudget = 300 * 1024

    public var name = ""
    public var description = ""
    /// Amounts as typed; they are read as whole numbers when checked.
    public var price = ""
    public var discount = ""
    public var stock = ""
    public var currency: Currency = .krw
    public private(set) var images: [Data] = []
    /// What is wrong, by field, in words a person can act on.
    public private(set) var errors: [Field: String] = [:]
    public private(set) var isSaving = false

    /// The product being edited; nil when registering a new one.
    public let original: ProductDetails?
    private let client: OpenMarketClient
    @ObservationIgnored private let shrink: ImageShrinker?

    public init(client: OpenMarketClient, editing original: ProductDetails? = nil, shrink: ImageShrinker? = nil) {
        self.client = client
        self.original = original
        self.shrink = shrink
        if let listing = original?.listing {
            name = listing.name
            description = listing.description
            price = String(listing.price)
            discount = String(listing.discount)
            stock = String(listing.stock)
            currency = listing.currency
        }
    }

    public var descriptionCount: String { "\(description.count) / \(MarketRules.maximumDescriptionLength)" }

    /// The fields an edit has changed from the product as it was.
    public var changedFields: Set<Field> {
        guard let listing = original?.listing else { return [] }
        var changed: Set<Field> = []
        if name != listing.name { changed.insert(.name) }
        if description != listing.description { changed.insert(.description) }
        if price != String(listing.price) { changed.insert(.price) }
        if discount != String(listing.discount) { changed.insert(.discount) }
        if stock != String(listing.stock) { changed.insert(.stock) }
        if currency != listing.currency { changed.insert(.currency) }
        return changed
    }

    /// Adds a picture (new products only), shrunk to the byte budget when a shrinker is set.
    public func addImage(_ data: Data) async throws {
        guard images.count < MarketRules.imagesPerProduct.upperBound else {
            errors[.images] = "at most \(MarketRules.imagesPerProduct.upperBound) pictures"
            return
        }
        let shrunk = try await shrink?(data, Self.imageByteBudget) ?? data
        images.append(shrunk)
        errors[.images] = nil
    }

    public func removeImage(at index: Int) {
        guard images.indices.contains(index) else { return }
        images.remove(at: index)
    }

    /// Checks every field with the market's rules; fills `errors` and answers the draft when all pass.
    @discardableResult
    public func validate() -> ProductDraft? {
        errors = [:]
        let name = check(.name, try MarketRules.validName(self.name))
        let description = check(.description, try MarketRules.validDescription(self.description))
        let price = amount(.price, self.price)
        let discount = discount.isEmpty ? 0 : amount(.discount, self.discount)
        let stock = stock.isEmpty ? 0 : amount(.stock, self.stock)
        if let price, let discount { _ = check(.discount, try MarketRules.validDiscount(discount, price: price)) }
        if original == nil { _ = check(.images, try MarketRules.validImageCount(self.images.count)) }
        guard errors.isEmpty, let name, let description, let price, let discount, let stock else { return nil }
        return ProductDraft(
            name: name, description: description, currency: currency, price: price, discount: discount, stock: stock)
    }

    /// Registers or updates (only what changed); answers the saved product, or nil with `errors` set.
    public func save() async -> ProductDetails? {
        guard !isSaving, let draft = validate() else { return nil }
        isSaving = true
        defer { isSaving = false }
        do {
            guard let original else { return try await client.createProduct(draft, images: images) }
            let changed = changedFields
            return try await client.updateProduct(
                id: original.id,
                ProductChanges(
                    name: changed.contains(.name) ? draft.name : nil,
                    description: changed.contains(.description) ? draft.description : nil,
                    currency: changed.contains(.currency) ? draft.currency : nil,
                    price: changed.contains(.price) ? draft.price : nil,
                    discount: changed.contains(.discount) ? .amount(draft.discount) : nil,
                    stock: changed.contains(.stock) ? draft.stock : nil))
        } catch let OpenMarketError.http(_, message, field) {
            errors[Self.field(named: field) ?? .name] = message
        } catch {
            errors[.name] = (error as? OpenMarketError)?.description ?? error.localizedDescription
        }
        return nil
    }

    private func check<T>(_ field: Field, _ rule: @autoclosure () throws(ValidationError) -> T) -> T? {
        do { return try rule() } catch {
            errors[field] = "\(Self.label(field)) \(error.rule)"
            return nil
        }
    }

    private func amount(_ field: Field, _ text: String) -> Int64? {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else {
            errors[field] = "\(Self.label(field)) must be a whole number"
            return nil
        }
        return check(field, try MarketRules.validAmount(value, field: field.rawValue))
    }

    private static func label(_ field: Field) -> String {
        field == .discount ? "discount" : field.rawValue
    }

    /// The editor field for a field name the server blamed.
    private static func field(named name: String?) -> Field? {
        switch name {
        case "discounted_price": .discount
        case let name?: Field(rawValue: name.hasPrefix("images") ? "images" : name)
        case nil: nil
        }
    }
}
