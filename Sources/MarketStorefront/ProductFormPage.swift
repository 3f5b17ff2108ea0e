import MarketHTTPShared
import MarketModel
import MarketPages

/// The register and edit forms: what was typed, what is wrong beside each field and, editing, which fields changed.
struct ProductFormPage {
    let heading: String
    /// What product-form.mustache reads, each field as field.mustache reads it.
    let content: PageContent

    /// The form as typed; `product` is the one being edited, nil when registering.
    init(
        action: String, entry: ProductEntry, strings: Localization, editing product: Product? = nil,
        problems: [ProductEntry.Field: String] = [:], formError: String? = nil, sending: String = ""
    ) {
        heading = product.map { strings("editProduct", ["name": $0.name]) } ?? strings("sellAProduct")
        let original = product.map(ProductEntry.init)
        let before = original ?? entry
        let changed = original.map { entry.changedFields(from: $0) } ?? []
        func field(_ key: ProductEntry.Field, _ value: String, _ original: String, required: Bool = true)
            -> PageContent
        {
            [
                "id": key.rawValue, "label": strings(key.rawValue), "hint": Self.hints[key].map { strings($0) },
                "required": required, "value": value, "original": original, "error": problems[key],
                "changed": changed.contains(key),
                // Amounts: a numeric keypad on phones.
                "isNumber": [ProductEntry.Field.price, .discount, .stock].contains(key),
            ]
        }
        let price = ProductEntry.amount(entry.price)
        let discount =
            entry.discount.trimmingCharacters(in: .whitespaces).isEmpty ? 0 : ProductEntry.amount(entry.discount)
        // What a buyer pays with the price and discount as typed, when both read as amounts.
        let buyerPays =
            if let price, let discount, discount <= price {
                strings("buyerPays", ["amount": strings.money(price - discount, entry.currency)])
            } else { "" }
        let imageLimit = MarketRules.imagesPerProduct.upperBound
        content = [
            "action": action, "isEdit": product != nil, "heading": heading,
            "cancel": product.map { "/products/\($0.id)" } ?? "/",
            "name": field(.name, entry.name, before.name),
            "description": field(.description, entry.description, before.description),
            "price": field(.price, entry.price, before.price),
            "discount": field(.discount, entry.discount, before.discount, required: false),
            "stock": field(.stock, entry.stock, before.stock),
            "currency": field(.currency, entry.currency.rawValue, before.currency.rawValue),
            "images": field(.images, "", ""),
            "currencies": Currency.allCases.map {
                ["code": $0.rawValue, "selected": $0 == entry.currency] as PageContent
            },
            "buyerPays": buyerPays,
            // The photos an edit keeps unless new ones are chosen.
            "currentPhotos": (product?.images ?? []).enumerated().map {
                [
                    "url": "/images/\($1.thumbnailKey)", "alt": strings("currentPhoto", ["number": String($0 + 1)]),
                ] as PageContent
            },
            "photosHint": strings("photosHint", ["limit": String(imageLimit)]),
            "descriptionCount": entry.description.count,
            "descriptionLimit": MarketRules.maximumDescriptionLength, "imageLimit": imageLimit,
            // A failure no single field is to blame for.
            "formError": formError,
            // Names this sending of a new product's form, so that sending it again registers nothing twice.
            "sending": sending,
        ]
    }

    private static let hints: [ProductEntry.Field: String] = [
        .price: "priceHint", .discount: "discountHint", .stock: "stockHint",
    ]
}
