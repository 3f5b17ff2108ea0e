import Foundation
import MarketCore
import MarketModel

/// The members of a JSON object read the forgiving way: each fact under any of its known key
/// spellings, numbers from `1000`, `1000.0` or `"1000"`, and `null` or `""` as absent.
package struct JSONFields {
    package let members: [String: JSONValue]

    package init(members: [String: JSONValue]) { self.members = members }

    /// Parses a request body that must be a JSON object. `part` names it in error messages.
    package init(body: Data, part: String) throws(MarketError) {
        switch try JSONFields.parse(body, part: part) {
        case .object(let members): self.members = members
        default: throw MarketError(.invalid, field: .sent(part), rule: .jsonObject)
        }
    }

    package static func parse(_ body: Data, part: String) throws(MarketError) -> JSONValue {
        do {
            return try LenientJSONParser.parse(body)
        } catch {
            throw MarketError(.invalid, field: .sent(part), rule: .notJSON(problem: error.reason, byte: error.offset))
        }
    }

    private func value(_ keys: [String]) -> (key: String, value: JSONValue)? {
        for key in keys {
            switch members[key] {
            case nil, .null?, .string("")?: continue
            case let value?: return (key, value)
            }
        }
        return nil
    }

    package func text(_ keys: String...) throws(MarketError) -> String? {
        guard let (key, value) = value(keys) else { return nil }
        switch value {
        case .string(let text): return text
        case .number(let literal): return literal
        default: throw MarketError(.invalid, field: .sent(key), rule: .text)
        }
    }

    /// A whole, non-fractional number such as a price, a stock or an id.
    package func wholeNumber(_ keys: String...) throws(MarketError) -> Int64? {
        guard let (key, value) = value(keys) else { return nil }
        let literal: String
        switch value {
        case .number(let text), .string(let text): literal = text.trimmingCharacters(in: .whitespaces)
        default: throw MarketError(.invalid, field: .sent(key), rule: .number)
        }
        if let whole = Int64(literal) { return whole }
        guard let decimal = Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX")),
            !decimal.isNaN, literal.allSatisfy({ "+-0123456789.eE".contains($0) })
        else { throw MarketError(.invalid, field: .sent(key), rule: .numberNot("\"\(literal)\"")) }
        guard decimal == decimal.rounded(), let whole = Int64(exactly: NSDecimalNumber(decimal: decimal).doubleValue)
        else { throw MarketError(.invalid, field: .sent(key), rule: .wholeNumberNot(literal)) }
        return whole
    }

    package func currency(_ keys: String...) throws(MarketError) -> Currency? {
        guard let (key, value) = value(keys) else { return nil }
        guard case .string(let code) = value, let currency = Currency(code: code) else {
            throw MarketError(.invalid, field: .sent(key), rule: .oneOf(Currency.allCases.map(\.rawValue)))
        }
        return currency
    }
}

extension Decimal {
    fileprivate func rounded() -> Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, 0, .plain)
        return result
    }
}

extension Optional {
    package func orMissing(_ field: MarketField) throws(MarketError) -> Wrapped {
        guard let self else { throw MarketError.missing(field) }
        return self
    }
}
