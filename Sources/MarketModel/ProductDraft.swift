/// A product's own facts: as a vendor first describes it, before image processing, and as stored products hold them.
public struct ProductDraft: Sendable, Equatable {
    public var name: String
    public var description: String
    public var currency: Currency
    /// The list price in whole units of `currency`.
    public var price: Int64
    /// How much is taken off `price`; 0 when there is no discount.
    public var discount: Int64
    public var stock: Int64
    /// The 2021 app that last set the discount sent a sale price of 0 (`discounted_price: 0`), by which it means none:
    /// some cannot leave the field out. There is no discount, and the 2021 API gives the 0 back as the app sent it.
    public var zeroSalePriceSent: Bool
    /// A sale price stated apart from the price and the discount, as some servers' data has it; only a rehearsed
    /// hard case states one.
    public var statedSalePrice: Int64?

    /// What a buyer pays.
    public var salePrice: Int64 { statedSalePrice ?? price - discount }

    public init(
        name: String, description: String, currency: Currency, price: Int64, discount: Int64 = 0, stock: Int64 = 0,
        zeroSalePriceSent: Bool = false
    ) {
        self.name = name
        self.description = description
        self.currency = currency
        self.price = price
        self.discount = discount
        self.stock = stock
        self.zeroSalePriceSent = zeroSalePriceSent
    }

    /// The draft with every rule checked: trimmed name, amounts in range, discount within the price.
    public func validated() throws(ValidationError) -> ProductDraft { try validated(checkingDescription: true) }

    func validated(checkingDescription: Bool) throws(ValidationError) -> ProductDraft {
        var draft = self
        draft.name = try MarketRules.validName(name)
        if checkingDescription { draft.description = try MarketRules.validDescription(description) }
        draft.price = try MarketRules.validAmount(price, field: .price)
        draft.discount = try MarketRules.validDiscount(discount, price: draft.price)
        draft.stock = try MarketRules.validAmount(stock, field: .stock)
        return draft
    }
}

/// A partial update: nil leaves a fact as it is.
public struct ProductChanges: Sendable, Equatable {
    /// How a change states the discount.
    public enum Discount: Sendable, Equatable {
        /// How much is taken off the price (the 2022 API's `discounted_price`).
        case amount(Int64)
        /// What the buyer pays (the 2021 API's `discounted_price`).
        case salePrice(Int64)

        /// The discount at `price`, and whether it was a 2021 app's sale price of 0, by which it means none: some
        /// cannot leave the field out.
        public func resolved(at price: Int64) throws(ValidationError) -> (discount: Int64, zeroSalePriceSent: Bool) {
            switch self {
            case .amount(let amount): (amount, false)
            case .salePrice(0): (0, true)
            case .salePrice(let salePrice): (try MarketRules.discount(price: price, salePrice: salePrice), false)
            }
        }
    }

    /// What a price change alone keeps: the discount amount (2022 API) or what the buyer pays (2021 API).
    public enum PriceChangeKeeps: Sendable, Equatable { case discount, salePrice }

    public var name: String?
    public var description: String?
    public var currency: Currency?
    public var price: Int64?
    public var discount: Discount?
    public var stock: Int64?
    public var coverImageID: Int64?
    public var priceChangeKeeps: PriceChangeKeeps

    public init(
        name: String? = nil, description: String? = nil, currency: Currency? = nil, price: Int64? = nil,
        discount: Discount? = nil, stock: Int64? = nil, coverImageID: Int64? = nil,
        priceChangeKeeps: PriceChangeKeeps = .discount
    ) {
        self.name = name
        self.description = description
        self.currency = currency
        self.price = price
        self.discount = discount
        self.stock = stock
        self.coverImageID = coverImageID
        self.priceChangeKeeps = priceChangeKeeps
    }

    /// The product with these changes applied and every rule checked again on the result.
    public func applied(to product: Product) throws(ValidationError) -> Product {
        var changed = product
        let price = price ?? product.price
        let (discount, zeroSalePriceSent) = try discount(for: product, at: price)
        let draft = try ProductDraft(
            name: name ?? product.name, description: description ?? product.description,
            currency: currency ?? product.currency, price: price, discount: discount, stock: stock ?? product.stock,
            zeroSalePriceSent: zeroSalePriceSent
                // A description kept as it was is not checked again, so a product stored without one stays editable.
        ).validated(checkingDescription: description != nil)
        changed.facts = draft
        if let coverImageID {
            guard product.images.contains(where: { $0.id == coverImageID }) else {
                throw ValidationError(field: .thumbnail, rule: .ownImage)
            }
            changed.coverImageID = coverImageID
        }
        return changed
    }

    /// The discount after the change, and whether a 2021 app's sale price of 0 (meaning none) set it.
    private func discount(for product: Product, at price: Int64) throws(ValidationError) -> (Int64, Bool) {
        if let discount { return try discount.resolved(at: price) }
        guard priceChangeKeeps == .salePrice, product.discount > 0 else {
            return (product.discount, product.zeroSalePriceSent)
        }
        return (try MarketRules.discount(price: price, salePrice: product.salePrice), false)
    }
}
