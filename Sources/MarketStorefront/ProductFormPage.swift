import MarketHTTPShared
import MarketModel
import MarketPages

/// The register and edit forms: what was typed, what is wrong beside each field, and (when editing)
/// which fields differ from the product as it is.
struct ProductFormPage {
    struct Field {
        var id: String
        var label: String
        var hint: String?
        var required: Bool
        /// Amounts: a numeric keypad on phones.
        var isNumber: Bool
        var value: String
        var original: String
        var error: String?
        var changed: Bool
    }

    struct Thumbnail {
        var url: String
        var alt: String
    }

    struct CurrencyOption {
        var code: String
        var selected: Bool
    }

    var action: String
    var isEdit: Bool
    var heading: String
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
    /// What a buyer pays with the price and discount as typed, when both read as amounts.
    var buyerPays: String
    /// The photos an edit keeps unless new ones are chosen.
    var currentPhotos: [Thumbnail]
    var photosHint: String
    var descriptionCount: Int
    var descriptionLimit = MarketRules.maximumDescriptionLength
    var imageLimit = MarketRules.imagesPerProduct.upperBound
    /// A failure no single field is to blame for.
    var formError: String?
    /// Names this sending of a new product's form, so that sending it again registers nothing twice.
    var sending: String

    /// The form as typed; `product` is the one being edited, nil when registering.
    init(
        action: String, entry: ProductEntry, strings: Localization, editing product: Product? = nil,
        problems: [ProductEntry.Field: String] = [:], formError: String? = nil, sending: String = ""
    ) {
        self.action = action
        isEdit = product != nil
        heading = product.map { strings("editProduct", ["name": $0.name]) } ?? strings("sellAProduct")
        cancel = product.map { "/products/\($0.id)" } ?? "/"
        let original = product.map(ProductEntry.init)
        let before = original ?? entry
        let changed = original.map { entry.changedFields(from: $0) } ?? []
        func field(_ key: ProductEntry.Field, _ value: String, _ original: String, required: Bool = true) -> Field {
            Field(
                id: key.rawValue, label: strings(key.rawValue), hint: Self.hints[key].map { strings($0) },
                required: required, isNumber: [.price, .discount, .stock].contains(key), value: value,
                original: original, error: problems[key], changed: changed.contains(key))
        }
        name = field(.name, entry.name, before.name)
        description = field(.description, entry.description, before.description)
        price = field(.price, entry.price, before.price)
        discount = field(.discount, entry.discount, before.discount, required: false)
        stock = field(.stock, entry.stock, before.stock)
        currency = field(.currency, entry.currency.rawValue, before.currency.rawValue)
        images = field(.images, "", "")
        currencies = Currency.allCases.map { CurrencyOption(code: $0.rawValue, selected: $0 == entry.currency) }
        let price = ProductEntry.amount(entry.price)
        let discount =
            entry.discount.trimmingCharacters(in: .whitespaces).isEmpty ? 0 : ProductEntry.amount(entry.discount)
        buyerPays =
            if let price, let discount, discount <= price {
                strings("buyerPays", ["amount": strings.money(price - discount, entry.currency)])
            } else { "" }
        descriptionCount = entry.description.count
        currentPhotos = (product?.images ?? []).enumerated().map {
            Thumbnail(url: "/images/\($1.thumbnailKey)", alt: strings("currentPhoto", ["number": String($0 + 1)]))
        }
        photosHint = strings("photosHint", ["limit": String(imageLimit)])
        self.formError = formError
        self.sending = sending
    }

    private static let hints: [ProductEntry.Field: String] = [
        .price: "priceHint", .discount: "discountHint", .stock: "stockHint",
    ]
}
