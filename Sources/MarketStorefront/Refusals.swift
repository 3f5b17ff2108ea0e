import Foundation
import MarketCore
import MarketModel

/// The market's refusals in the visitor's words. The market states its rules in English (the API
/// sends them as they are); each rule it has is recognised here and said again in the page's
/// language, numbers grouped. A rule this does not know is shown as the market said it.
extension Words {
    func refusal(_ error: MarketError) -> String {
        switch (error.explanation, error.field) {
        case (.rule(let broken), let field?): rule(broken, field: field)
        case (.rule(let words), nil), (.sentence(let words), _): sentence(words)
        }
    }

    /// One of the market's sentences in this language, where it is one the storefront shows.
    private func sentence(_ english: String) -> String {
        said(english) ?? Self.sentence(english)
    }

    /// A sentence of the market's said in this language, or nil when it is not one this knows.
    func said(_ english: String) -> String? {
        let whole = NSRange(english.startIndex..., in: english)
        for (pattern, key, names) in Self.sentences {
            guard let match = pattern.firstMatch(in: english, range: whole) else { continue }
            let values = Dictionary(
                uniqueKeysWithValues: names.enumerated().map { index, name in
                    (name, Range(match.range(at: index + 1), in: english).map { String(english[$0]) } ?? "")
                })
            return self(key, values)
        }
        return nil
    }

    /// The market's sentences: each one's pattern, its phrase, and the names of what it captures.
    private static let sentences: [(NSRegularExpression, String, [String])] = [
        (#"no product has the id "?(\d+)"?"#, "noProductWithID", ["id"]),
        (#"product (\d+) was hidden by the market's operator; ask them to show it again"#, "hiddenByOperator", ["id"]),
        ("the identifier and secret do not match a vendor", "wrongCredentials", []),
        (#"too many wrong secrets; try again in (\d+) seconds?"#, "tooManyGuesses", ["seconds"]),
        (#"product (\d+) belongs to another vendor"#, "notYourProduct", ["id"]),
        (#"a vendor with the id (\d+) exists already"#, "vendorIDTaken", ["id"]),
        ("a vendor with the identifier (.+) exists already", "vendorIdentifierTaken", ["identifier"]),
        ("no vendor has the identifier (.+)", "noVendorWithIdentifier", ["identifier"]),
        ("an operator named (.+) exists already", "operatorTaken", ["name"]),
        (#"the multipart body never mentions its boundary "(.*)""#, "multipartNoBoundary", ["boundary"]),
        (
            "POST /api/products takes multipart/form-data with a params part and 1 to 5 images parts",
            "createTakesMultipart", []
        ),
        ("items are sent as multipart/form-data", "itemsTakeMultipart", []),
        (#"the request body is larger than (\d+) bytes"#, "bodyTooLarge", ["bytes"]),
        ("the password does not match this item", "wrongItemPassword", []),
    ].map { (try! NSRegularExpression(pattern: "^" + $0.0 + "$"), $0.1, $0.2) }

    /// What is wrong with `field`, as a sentence: "Discount must not be more than the price (15,000)".
    func rule(_ rule: String, field: MarketField) -> String {
        Self.sentence(said(rule, field: field))
    }

    /// What is wrong with `field`, its name as it is: "discounted_price: 가격(15,000)보다 클 수 없습니다".
    func said(_ rule: String, field: MarketField) -> String {
        var values = ["field": name(of: field)]
        func number(_ text: Substring) -> String { Self.grouped(Int64(text) ?? 0) }
        let key: String
        if rule == "must not be empty" {
            key = "rule.empty"
        } else if rule == "is required" {
            key = "rule.required"
        } else if let match = rule.wholeMatch(of: #/must not contain the control character (U\+[0-9A-F]+)/#) {
            key = "rule.control"
            values["character"] = String(match.1)
        } else if let match = rule.wholeMatch(of: #/must be at most (\d+) characters/#) {
            key = "rule.maxCharacters"
            values["limit"] = number(match.1)
        } else if rule == "must be 0 or more" {
            key = "rule.notNegative"
        } else if rule == "must be 1 or more" {
            key = "rule.atLeastOne"
        } else if let match = rule.wholeMatch(of: #/must be at most (\d+)/#) {
            key = "rule.atMost"
            values["limit"] = number(match.1)
        } else if let match = rule.wholeMatch(of: #/must not be more than the price \((\d+)\)/#) {
            key = "rule.notMoreThanPrice"
            values["price"] = number(match.1)
        } else if let match = rule.wholeMatch(of: #/must hold at least (\d+) images?/#) {
            key = "rule.atLeastImages"
            values["count"] = number(match.1)
        } else if let match = rule.wholeMatch(of: #/must hold at most (\d+) images?/#) {
            key = "rule.atMostImages"
            values["count"] = number(match.1)
        } else if let match = rule.wholeMatch(of: #/must be from (\d+) to (\d+)( ms)?/#) {
            key = "rule.range"
            values["low"] = number(match.1)
            values["high"] = number(match.2)
            values["unit"] = match.3.map(String.init) ?? ""
        } else if let match = rule.wholeMatch(of: #/must be from 0 to the latency \((\d+) ms\)/#) {
            key = "rule.upToLatency"
            values["latency"] = number(match.1)
        } else if rule == "must be an error status, from 400 to 599" {
            key = "rule.errorStatus"
        } else if rule == "must be a whole number" {
            key = "rule.wholeNumber"
        } else if rule == "must be a JSON object" {
            key = "rule.jsonObject"
        } else if let match = rule.wholeMatch(of: #/is not JSON: (.+) at byte (\d+)/#) {
            key = "rule.notJSON"
            (values["problem"], values["byte"]) = (String(match.1), number(match.2))
        } else if rule == "must be text" {
            key = "rule.text"
        } else if rule == "must be a number" {
            key = "rule.number"
        } else if let match = rule.wholeMatch(of: #/must be a (whole )?number, not (.+)/#) {
            key = match.1 == nil ? "rule.numberNot" : "rule.wholeNumberNot"
            values["sent"] = String(match.2)
        } else if let match = rule.wholeMatch(of: #/must be ([A-Z]{3}(?: or [A-Z]{3})+)/#) {
            key = "rule.oneOf"
            values["allowed"] = match.1.split(separator: " or ").joined(separator: "/")
        } else if let match = rule.wholeMatch(of: #/is (\d+) bytes; an image may be at most (\d+) bytes/#) {
            key = "rule.imageBytes"
            values["size"] = Self.megabytes(Int(match.1) ?? 0)
            values["limit"] = String((Int(match.2) ?? 0) / 1_048_576)
        } else if rule == "is not a JPEG, PNG, WebP or HEIC image" {
            key = "rule.notAnImage"
        } else if rule.hasPrefix("is a HEIC photo, which this market cannot read") {
            key = "rule.heicUnreadable"
        } else if rule.wholeMatch(of: #/is damaged or not a whole \w+ image; send the picture again/#) != nil {
            key = "rule.damaged"
        } else if let match = rule.wholeMatch(of: #/.*; an image may have at most (\d+) pixels/#) {
            key = "rule.tooManyPixels"
            values["limit"] = number(match.1)
        } else {
            return "\(values["field"] ?? "") \(rule)"
        }
        return self(key, values)
    }

    /// A field as the storefront's forms name it: "photo 2", "사진 2".
    func name(of field: MarketField) -> String {
        switch field {
        case .name: self("field.name")
        case .description: self("field.description")
        case .price: self("field.price")
        case .discount: self("field.discount")
        case .stock: self("field.stock")
        case .currency: self("field.currency")
        case .images: self("field.images")
        case .image(let index): self("field.image", ["number": String(index + 1)])
        case .thumbnail: self("field.thumbnail")
        case .secret, .productSecret: self("field.secret")
        case .latency: self("field.latency")
        case .jitter: self("field.jitter")
        case .failPercent: self("field.failPercent")
        case .failStatus: self("field.failStatus")
        case .dropPercent: self("field.dropPercent")
        case .slowBody: self("field.slowBody")
        case .brokenPercent: self("field.brokenPercent")
        case .brokenKinds: self("field.brokenKinds")
        case .sent("vendor-id"): self("field.vendorID")
        default: field.description
        }
    }

    /// A message that begins like a sentence.
    static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}

extension Words {
    /// An operator's act as the log keeps it (in the service's English), said in this language:
    /// "teacher hid product 7 “Lamp”" or "teacher님이 7번 상품 “Lamp”을 숨겼습니다".
    func logEntry(by who: String, _ action: String) -> String {
        let patterns: [(Regex<AnyRegexOutput>, String, [String])] = [
            (try! Regex(#"registered vendor (.+) \(vendor_id (\d+)\)"#), "log.registered", ["name", "id"]),
            (try! Regex(#"gave vendor (\S+) a new secret"#), "log.rekeyed", ["identifier"]),
            (try! Regex(#"removed product (\d+) “(.*)” of (.+)"#), "log.removed", ["id", "name", "vendor"]),
            (try! Regex(#"hid product (\d+) “(.*)”"#), "log.hid", ["id", "name"]),
            (try! Regex(#"showed product (\d+) “(.*)” again"#), "log.showed", ["id", "name"]),
            (try! Regex(#"emptied the market \((\d+) products\)"#), "log.emptied", ["count"]),
            (try! Regex(#"filled the market with (\d+) demo products"#), "log.filled", ["count"]),
        ]
        for (pattern, phrase, names) in patterns {
            guard let match = try? pattern.wholeMatch(in: action) else { continue }
            var values = ["who": who]
            for (index, name) in names.enumerated() {
                values[name] = match.output[index + 1].substring.map(String.init) ?? ""
            }
            return self(phrase, values)
        }
        return "\(who) \(action)"
    }
}
