import MarketHTTPShared
import MarketModel

/// The register and edit forms: what was typed, what is wrong beside each field, and (when editing)
/// which fields differ from the product as it is.
struct ProductFormPage {
    struct Field {
        var id: String
        var label: String
        /// Amounts: a numeric keypad on phones.
        var isNumber: Bool
        var value: String
        var original: String
        var error: String?
        var changed: Bool
    }

    struct Thumbnail {
        var number: Int
        var url: String
    }

    struct CurrencyOption {
        var code: String
        var selected: Bool
    }

    var action: String
    var isEdit: Bool
    /// Where Cancel goes: back to the product, or to the catalogue.
    var cancel: String
    var name: Field
    var description: Field
    var price: Field
    var discount: Field
    var stock: Field
    var currency: Field
    var images: Field
    var currencies: [CurrencyOption]
    /// The photos an edit keeps unless new ones are chosen.
    var currentPhotos: [Thumbnail]
    var descriptionCount: Int
    var descriptionLimit = MarketRules.maximumDescriptionLength
    var imageLimit = MarketRules.imagesPerProduct.upperBound
    /// A failure no single field is to blame for.
    var formError: String?

    /// The form as typed; `product` is the one being edited, nil when registering.
    init(
        action: String, entry: ProductEntry, editing product: Product? = nil,
        problems: [ProductEntry.Field: String] = [:], formError: String? = nil
    ) {
        self.action = action
        isEdit = product != nil
        cancel = product.map { "/products/\($0.id)" } ?? "/"
        let original = product.map(ProductEntry.init)
        let before = original ?? entry
        let changed = original.map { entry.changedFields(from: $0) } ?? []
        func field(_ key: ProductEntry.Field, _ value: String, _ original: String) -> Field {
            Field(
                id: key.rawValue, label: Self.labels[key] ?? key.rawValue,
                isNumber: [.price, .discount, .stock].contains(key), value: value, original: original,
                error: problems[key].map(Self.sentence), changed: changed.contains(key))
        }
        name = field(.name, entry.name, before.name)
        description = field(.description, entry.description, before.description)
        price = field(.price, entry.price, before.price)
        discount = field(.discount, entry.discount, before.discount)
        stock = field(.stock, entry.stock, before.stock)
        currency = field(.currency, entry.currency.rawValue, before.currency.rawValue)
        images = field(.images, "", "")
        currencies = Currency.allCases.map { CurrencyOption(code: $0.rawValue, selected: $0 == entry.currency) }
        descriptionCount = entry.description.count
        currentPhotos = (product?.images ?? []).enumerated().map {
            Thumbnail(number: $0 + 1, url: "/images/\($1.thumbnailKey)")
        }
        self.formError = formError.map(Self.sentence)
    }

    private static let labels: [ProductEntry.Field: String] = [
        .name: "Name", .description: "Description", .price: "Price", .discount: "Discount",
        .stock: "Stock", .currency: "Currency", .images: "Photos",
    ]

    /// A rule's words as a sentence a person reads beside the field: "Discount must not be more …".
    static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
