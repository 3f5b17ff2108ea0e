import MarketHTTPShared
import MarketModel

/// The 2021 API's names for the market's fields: a name is a `title`, a description
/// `descriptions`, and the secret an item's `password`.
enum V1FieldNames {
    @Sendable static func name(of field: MarketField) -> String {
        switch field {
        case .name: "title"
        case .description: "descriptions"
        case .secret, .productSecret: "password"
        default: APIFieldNames.name(of: field)
        }
    }
}
