import MarketModel

/// The market's fields as the storefront's forms name them to a person.
enum FieldNames {
    static func name(of field: MarketField) -> String {
        switch field {
        case .image(let index): "photo \(index + 1)"
        case .images: "photos"
        case .thumbnail: "cover photo"
        case .productSecret: "secret"
        default: field.description
        }
    }
}
