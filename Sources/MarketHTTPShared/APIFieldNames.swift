import MarketModel

/// The market's fields as the 2022 API's clients spell them; the 2021 API differs in three.
package enum APIFieldNames {
    @Sendable package static func name(of field: MarketField) -> String {
        switch field {
        case .name: "name"
        case .description: "description"
        case .price: "price"
        case .discount: "discounted_price"
        case .stock: "stock"
        case .currency: "currency"
        case .images: "images"
        case .image(let index): "images[\(index)]"
        case .thumbnail: "thumbnail_id"
        case .pageNumber: "page_no"
        case .itemsPerPage: "items_per_page"
        case .identifier: "identifier"
        case .secret: "secret"
        case .productSecret: "product_secret"
        case .latency: "latency_ms"
        case .jitter: "jitter_ms"
        case .failPercent: "fail_percent"
        case .failStatus: "status"
        case .dropPercent: "drop_percent"
        case .slowBody: "slow_body_ms"
        case .brokenPercent: "broken_percent"
        case .brokenKinds: "broken"
        case .sent(let name): name
        }
    }
}
