/// A JSON key spelled at run time, for bodies whose keys depend on the dialect or flavour.
package struct JSONKey: CodingKey, ExpressibleByStringLiteral {
    package var stringValue: String
    package var intValue: Int? { nil }

    package init(_ name: String) { stringValue = name }
    package init(stringLiteral name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
