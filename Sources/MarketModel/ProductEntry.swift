import Foundation

/// A product as a person types it into a form (an app's editor, the storefront's page), amounts as text. Checking it
/// applies every rule of `MarketRules` at once and says, field by field, what is wrong in words a person can act on.
public struct ProductEntry: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case name, description, price, discount, stock, currency, images

        /// The form's field for a field the market blamed; nil for one no form shows.
        public init?(blamed field: MarketField?) {
            switch field {
            case .image, .thumbnail: self = .images
            default:
                guard let blamed = Self.allCases.first(where: { $0.marketField == field }) else { return nil }
                self = blamed
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

    /// An amount as people type it: `12000`, `12,000`, `12,000원`, `₩12,000`, `US$4` or `$4`, and
    /// with Korean units: `5만`, `5만원`, `1.5만`, `3천`, `1억 2천만`, `2만 5천원`. Nil for anything else
    /// (a fraction of a won, digits grouped wrongly). A minus stays, for the rules to refuse.
    public static func amount(_ text: String) -> Int64? {
        // Any amount that fits is typed in far fewer; a longer text would only make the units' reading deep.
        guard text.utf8.count <= 64 else { return nil }
        var text = text.trimmingCharacters(in: .whitespaces)
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        if let sign = ["US$", "₩", "$"].first(where: { text.hasPrefix($0) }) { text.removeFirst(sign.count) }
        if text.hasSuffix("원") { text = String(text.dropLast()) }
        text = text.trimmingCharacters(in: .whitespaces)
        guard let value = koreanAmount(text), value <= Decimal(Int64.max) else { return nil }
        let whole = NSDecimalNumber(decimal: value).int64Value
        guard Decimal(whole) == value else { return nil }
        return negative ? -whole : whole
    }

    /// `1억 2천만 5천` as 120,005,000: numbers before 억 and 만 count those, and within each, numbers
    /// before 천, 백 and 십 count those; a number alone is a plain one (`12,000`, `1.5`).
    private static func koreanAmount(_ text: String) -> Decimal? {
        let units: [(Character, Decimal)] = [("억", 100_000_000), ("만", 10_000), ("천", 1_000), ("백", 100), ("십", 10)]
        guard let (unit, scale) = units.first(where: { text.contains($0.0) }) else { return plainNumber(text) }
        let parts = text.split(separator: unit, maxSplits: 1, omittingEmptySubsequences: false)
        let before = parts[0].trimmingCharacters(in: .whitespaces)
        let after = parts[1].trimmingCharacters(in: .whitespaces)
        // 만 alone is one 만; a number before a unit is never negative or empty of digits.
        guard let count = before.isEmpty ? 1 : koreanAmount(before),
            let rest = after.isEmpty ? 0 : koreanAmount(after), rest < scale
        else { return nil }
        return count * scale + rest
    }

    /// Digits, grouped by commas in threes or not at all, with at most one decimal point.
    private static func plainNumber(_ text: String) -> Decimal? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, pieces.allSatisfy({ !$0.isEmpty }) else { return nil }
        let groups = pieces[0].split(separator: ",", omittingEmptySubsequences: false)
        let grouped =
            groups.count > 1 && (1...3).contains(groups[0].count) && groups.dropFirst().allSatisfy { $0.count == 3 }
        guard groups.count == 1 || grouped else { return nil }
        let digits = groups.joined() + (pieces.count == 2 ? "." + pieces[1] : "")
        guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
        return Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX"))
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
