/// Input that breaks a rule of the market: names the field and the rule, so that a person can fix it.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: MarketField
    public var rule: String

    public init(field: MarketField, rule: String) {
        self.field = field
        self.rule = rule
    }

    public var description: String { "\(field) \(rule)" }
}
