/// Input that breaks a rule of the market: names the field and the rule, so that a person can fix it.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var rule: String

    public init(field: String, rule: String) {
        self.field = field
        self.rule = rule
    }

    public var description: String { "\(field) \(rule)" }
}
