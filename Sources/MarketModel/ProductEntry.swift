/// A product as a person types it into a form (an app's editor, the storefront's page), amounts as
/// text. Checking it applies every rule of `MarketRules` at once and says, field by field, what is
/// wrong in words a person can act on.
public struct ProductEntry: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case name, description, price, discount, stock, currency, images

        /// The form's field for a field the market blamed; nil for one no form shows.
        public init?(blamed field: MarketField?) {
            switch field {
            case .name: self = .name
            case .description: self = .description
            case .price: self = .price
            case .discount: self = .discount
            case .stock: self = .stock
            case .currency: self = .currency
            case .images, .image, .thumbnail: self = .images
            default: return nil
            }
        }

        public var marketField: MarketField {
            switch self {
            case .name: .name
            case .description: .description
            case .price: .price
            case .discount: .discount
            case .stock: .stock
            case .currency: .currency
            case .images: .images
            }
        }
    }

    /// What is wrong with an entry: the rule each field breaks.
    public struct Problems: Error, Sendable, Equatable {
        public var rules: [Field: Rule]

        /// Each problem in English after its field's name: "price must be a whole number".
        public var byField: [Field: String] {
            rules.reduce(into: [:]) { $0[$1.key] = "\($1.key.rawValue) \($1.value.english)" }
        }
    }

    public var name: String
    public var description: String
    public var price: String
    public var discount: String
    public var stock: String
    public var currency: Currency

    public init(
        name: String = "", description: String = "", price: String = "", discount: String = "", stock: String = "",
        currency: Currency = .krw
    ) {
        self.name = name
        self.description = description
        self.price = price
        self.discount = discount
        self.stock = stock
        self.currency = currency
    }

    /// The entry that shows a product as it is.
    public init(_ product: ProductDraft) {
        self.init(
            name: product.name, description: product.description, price: String(product.price),
            discount: String(product.discount), stock: String(product.stock), currency: product.currency)
    }

    /// The draft this entry describes, with every rule checked. `imageCount` is how many pictures
    /// come with it, or nil when pictures are not part of the entry (an edit that keeps them).
    public func draft(imageCount: Int?) throws(Problems) -> ProductDraft {
        var problems: [Field: Rule] = [:]
        func check<T>(_ field: Field, _ rule: () throws(ValidationError) -> T) -> T? {
            do { return try rule() } catch {
                problems[field] = error.rule
                return nil
            }
        }
        func amount(_ field: Field, _ text: String, orElse empty: Int64?) -> Int64? {
            if text.trimmingCharacters(in: .whitespaces).isEmpty {
                if let empty { return empty }
                problems[field] = .required
                return nil
            }
            guard let value = Self.amount(text) else {
                problems[field] = .wholeNumber
                return nil
            }
            return check(field) { () throws(ValidationError) in
                try MarketRules.validAmount(value, field: field.marketField)
            }
        }
        let name = check(.name) { () throws(ValidationError) in try MarketRules.validName(self.name) }
        let description = check(.description) { () throws(ValidationError) in
            try MarketRules.validDescription(self.description)
        }
        let price = amount(.price, self.price, orElse: nil)
        let discount = amount(.discount, self.discount, orElse: 0)
        // A blank stock is a question left unanswered, not "none": it would list the product as sold out.
        let stock = amount(.stock, self.stock, orElse: nil)
        if let price, let discount {
            _ = check(.discount) { () throws(ValidationError) in try MarketRules.validDiscount(discount, price: price) }
        }
        if let imageCount {
            _ = check(.images) { () throws(ValidationError) in try MarketRules.validImageCount(imageCount) }
        }
        guard problems.isEmpty, let name, let description, let price, let discount, let stock else {
            throw Problems(rules: problems)
        }
        return ProductDraft(
            name: name, description: description, currency: currency, price: price, discount: discount, stock: stock)
    }

    /// An amount as people type it: `12000`, `12,000`, `12,000원`, `₩12,000`, `US$4` or `$4`; nil for
    /// anything else (a fraction, digits grouped wrongly). A minus stays, for the rules to refuse.
    public static func amount(_ text: String) -> Int64? {
        var text = text.trimmingCharacters(in: .whitespaces)
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        for sign in ["US$", "₩", "$"] where text.hasPrefix(sign) {
            text = String(text.dropFirst(sign.count))
            break
        }
        if text.hasSuffix("원") { text = String(text.dropLast()) }
        text = text.trimmingCharacters(in: .whitespaces)
        let groups = text.split(separator: ",", omittingEmptySubsequences: false)
        let grouped =
            groups.count > 1 && (1...3).contains(groups[0].count) && groups.dropFirst().allSatisfy { $0.count == 3 }
        guard groups.count == 1 || grouped else { return nil }
        let digits = groups.joined()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits) else {
            return nil
        }
        return negative ? -value : value
    }

    /// The fields that differ from `original`.
    public func changedFields(from original: ProductEntry) -> Set<Field> {
        var changed: Set<Field> = []
        if name != original.name { changed.insert(.name) }
        if description != original.description { changed.insert(.description) }
        // "12,000" typed over "12000" is the same amount, not a change.
        func differ(_ text: String, _ before: String) -> Bool {
            text != before && (Self.amount(text) == nil || Self.amount(text) != Self.amount(before))
        }
        if differ(price, original.price) { changed.insert(.price) }
        if differ(discount, original.discount) { changed.insert(.discount) }
        if differ(stock, original.stock) { changed.insert(.stock) }
        if currency != original.currency { changed.insert(.currency) }
        return changed
    }

    /// Only what an edit changed, taken from the checked `draft` of this entry.
    public func changes(from original: ProductEntry, draft: ProductDraft) -> ProductChanges {
        let changed = changedFields(from: original)
        return ProductChanges(
            name: changed.contains(.name) ? draft.name : nil,
            description: changed.contains(.description) ? draft.description : nil,
            currency: changed.contains(.currency) ? draft.currency : nil,
            price: changed.contains(.price) ? draft.price : nil,
            discount: changed.contains(.discount) ? .amount(draft.discount) : nil,
            stock: changed.contains(.stock) ? draft.stock : nil)
    }
}
