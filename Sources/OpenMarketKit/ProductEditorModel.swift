import Foundation
import MarketModel
import Observation

/// The register and edit screens: fields as typed, checked with the market's own `MarketRules`, the fields an edit
/// changed, up to five pictures shrunk by the app's hook, and the server's verdict next to its field.
@MainActor @Observable
public final class ProductEditorModel {
    /// A field of the form, as errors are keyed.
    public typealias Field = ProductEntry.Field

    /// Shrinks a picture to at most the given number of bytes (an app re-encodes it to fit `imageByteBudget`).
    public typealias ImageShrinker = @Sendable (_ image: Data, _ byteBudget: Int) async throws -> Data

    /// The most bytes a picture is sent with, after the app's shrink hook: 300 KB, as the apps sent.
    public static let imageByteBudget = 300 * 1024

    /// The product's name as typed.
    public var name = ""
    /// The product's description as typed.
    public var description = ""
    /// Amounts as typed; they are read as whole numbers when checked.
    public var price = ""
    /// The discount as typed: an amount off the price.
    public var discount = ""
    /// The stock as typed.
    public var stock = ""
    /// The currency of the price and the discount.
    public var currency: Currency = .krw
    /// The pictures chosen for a new product, each shrunk to `imageByteBudget`.
    public private(set) var images: [Data] = []
    /// What is wrong, by field, in words a person can act on.
    public private(set) var errors: [Field: String] = [:]
    /// What went wrong that no field is to blame for (offline, a wrong secret, …), in a sentence above the form.
    public private(set) var generalError: String?
    /// True while a save is on its way; a second one does not start.
    public private(set) var isSaving = false

    /// The product being edited, as last saved; nil when registering a new one.
    public private(set) var original: ProductDetails?
    private let client: any OpenMarketAPI
    @ObservationIgnored private let shrink: ImageShrinker?

    /// A form registering a product through `client`, or editing `original`, each picture shrunk by `shrink` if set.
    public init(client: any OpenMarketAPI, editing original: ProductDetails? = nil, shrink: ImageShrinker? = nil) {
        self.client = client
        self.original = original
        self.shrink = shrink
        if let originalEntry {
            name = originalEntry.name
            description = originalEntry.description
            price = originalEntry.price
            discount = originalEntry.discount
            stock = originalEntry.stock
            currency = originalEntry.currency
        }
    }

    /// How much of the description's allowance is used, such as "120 / 1000".
    public var descriptionCount: String { "\(description.count) / \(MarketRules.maximumDescriptionLength)" }

    /// The fields an edit has changed from the product as it was.
    public var changedFields: Set<Field> { originalEntry.map { entry.changedFields(from: $0) } ?? [] }

    private var entry: ProductEntry {
        ProductEntry(
            name: name, description: description, price: price, discount: discount, stock: stock, currency: currency)
    }

    private var originalEntry: ProductEntry? {
        guard let listing = original?.listing else { return nil }
        return ProductEntry(
            name: listing.name, description: listing.description, price: String(listing.price),
            discount: String(listing.discount), stock: String(listing.stock), currency: listing.currency)
    }

    /// Adds a picture, shrunk if a shrinker is set; new products only, as the API cannot replace listed pictures.
    public func addImage(_ data: Data) async throws {
        guard original == nil else {
            errors[.images] = "pictures cannot be changed once a product is listed"
            return
        }
        guard images.count < MarketRules.imagesPerProduct.upperBound else {
            errors[.images] = "at most \(MarketRules.imagesPerProduct.upperBound) pictures"
            return
        }
        images.append(try await shrink?(data, Self.imageByteBudget) ?? data)
        errors[.images] = nil
    }

    /// Removes the picture at `index` from those chosen.
    public func removeImage(at index: Int) {
        if images.indices.contains(index) { images.remove(at: index) }
    }

    /// Checks every field with the market's rules; fills `errors` and answers the draft when all pass.
    @discardableResult
    public func validate() -> ProductDraft? {
        do {
            let draft = try entry.draft(imageCount: original == nil ? images.count : nil)
            errors = [:]
            return draft
        } catch {
            errors = error.byField
            return nil
        }
    }

    /// Registers, or updates only what changed; answers the saved product, or nil with `errors` or `generalError`
    /// set. After an update the saved product is the new `original`, so nothing shows as changed any more.
    public func save() async -> ProductDetails? {
        guard !isSaving else { return nil }
        generalError = nil
        guard let draft = validate() else { return nil }
        isSaving = true
        defer { isSaving = false }
        do {
            guard let original else { return try await client.createProduct(draft, images: images) }
            let saved = try await client.updateProduct(
                id: original.id, entry.changes(from: originalEntry ?? entry, draft: draft))
            self.original = saved
            return saved
        } catch is CancellationError {
            return nil
        } catch let OpenMarketError.http(_, message, field?) where Field(blamed: field) != nil {
            errors[Field(blamed: field)!] = message
        } catch {
            generalError = error.localizedDescription
        }
        return nil
    }
}
