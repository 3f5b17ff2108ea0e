import Foundation
import MarketHTTPShared

extension RequestDiagnosis {
    /// Masks secrets in text the inspector could not read as JSON (a part under another name, a body it could not
    /// split, an answer quoting what was sent): the value after any name `namesSecret` accepts (`secret: x`,
    /// `"password": "x"`, `product_secret=x`, a name spelled with JSON escapes), quoted or not, even cut off before
    /// its closing quote; and the value of a form's part named for a secret. It takes time in proportion to the
    /// text's length whatever the text holds: names are found in one pass of a pattern that never backtracks.
    static func maskingSecrets(in text: String) -> String {
        let units = Array(text.utf16)
        var masks: [(range: Range<Int>, mask: String)] = []
        // Each unit is read by at most one value or head: a name inside a masked value is skipped, and a head
        // with no blank line after it means none after any later one either.
        var noBlankLineAfter = Int.max
        for match in namePattern.matches(in: text, range: NSRange(location: 0, length: units.count)) {
            let end = NSMaxRange(match.range)
            guard match.range.location >= (masks.last?.range.upperBound ?? 0) else { continue }
            let name = nameRange(of: match)
            if namesSecret(units[name], escaped: match.range(at: 1).location != NSNotFound),
                let value = value(in: units, at: end)
            {
                let quoted = units[value.lowerBound] == .quote || units[value.lowerBound] == .apostrophe
                masks.append((value, quoted ? Self.quoted(secretMask) : secretMask))
            } else if units[name].elementsEqual("name".utf16, by: { $0 | 0x20 == $1 }),
                let value = value(in: units, at: end, within: 64), value.count < 64,
                value.upperBound < noBlankLineAfter,
                namesSecret(units[value].drop { $0 == .quote || $0 == .apostrophe }, escaped: false)
            {
                guard let line = lineAfterHead(in: units, from: value.upperBound) else {
                    noBlankLineAfter = value.upperBound
                    continue
                }
                masks.append((line, secretMask))
            }
        }
        guard !masks.isEmpty else { return text }
        var masked: [UInt16] = []
        var copied = 0
        for (range, mask) in masks {
            masked += units[copied..<range.lowerBound] + mask.utf16
            copied = range.upperBound
        }
        return String(decoding: masked + units[copied...], as: UTF16.self)
    }

    /// A name and what follows it up to its value: `"a name"` (maybe with JSON escapes), `'a name'` or a bare word,
    /// then `:` or `=`. Every quantifier is possessive, a quoted name is at most 128 characters (every quote may
    /// begin one), and a bare word is tried only where a word begins.
    private static let namePattern = try! NSRegularExpression(
        pattern: #"(?:"((?:[^"\\]|\\.){0,128}+)"|'((?:[^'\\]|\\.){0,128}+)'|(?<![\w-])([\w-]++)["']?)\s*+[:=]\s*+"#)

    private static func nameRange(of match: NSTextCheckingResult) -> Range<Int> {
        let group = (1...3).lazy.map { match.range(at: $0) }.first { $0.location != NSNotFound } ?? match.range
        return group.location..<NSMaxRange(group)
    }

    /// `namesSecret` of a name as JSON reads it when `escaped`; one shorter than "secret" is none.
    private static func namesSecret(_ name: ArraySlice<UInt16>, escaped: Bool) -> Bool {
        guard name.count >= 6 else { return false }
        let text = String(decoding: name, as: UTF16.self)
        guard escaped, text.contains("\\") else { return text.namesSecret }
        return ((try? JSONDecoder().decode(String.self, from: Data("\"\(text)\"".utf8))) ?? text).namesSecret
    }

    /// The value at `start`: a quoted one through its closing quote (or to the end, cut off), or a bare one up to
    /// `&`, a space, `,`, `;` or `}`; read no further than `within` units.
    private static func value(in units: [UInt16], at start: Int, within: Int = .max) -> Range<Int>? {
        let limit = units.count - start > within ? start + within : units.count
        guard start < limit else { return nil }
        let first = units[start]
        var end = start + 1
        if first == .quote || first == .apostrophe {
            while end < limit, units[end] != first { end += units[end] == .backslash ? 2 : 1 }
            return start..<min(end + 1, limit)
        }
        guard !endsBareValue(first) else { return nil }
        while end < limit, !endsBareValue(units[end]) { end += 1 }
        return start..<end
    }

    private static func endsBareValue(_ unit: UInt16) -> Bool {
        unit == .quote || unit == .apostrophe || unit == .ampersand || unit == .comma || unit == .semicolon
            || unit == .closingBrace || unit == .space || (9...13).contains(unit)
    }

    /// The line after the first blank one from `start`: a part's value after its head.
    private static func lineAfterHead(in units: [UInt16], from start: Int) -> Range<Int>? {
        var index = start
        while index < units.count {
            defer { index += 1 }
            guard units[index] == .lineFeed else { continue }
            var next = index + 1
            if next < units.count, units[next] == .carriageReturn { next += 1 }
            guard next < units.count, units[next] == .lineFeed else { continue }
            let line = next + 1
            let end = units[line...].firstIndex { $0 == .carriageReturn || $0 == .lineFeed } ?? units.count
            return line..<end
        }
        return nil
    }
}

extension UInt16 {
    fileprivate static let quote = UInt16(UInt8(ascii: "\""))
    fileprivate static let apostrophe = UInt16(UInt8(ascii: "'"))
    fileprivate static let backslash = UInt16(UInt8(ascii: "\\"))
    fileprivate static let ampersand = UInt16(UInt8(ascii: "&"))
    fileprivate static let comma = UInt16(UInt8(ascii: ","))
    fileprivate static let semicolon = UInt16(UInt8(ascii: ";"))
    fileprivate static let closingBrace = UInt16(UInt8(ascii: "}"))
    fileprivate static let space = UInt16(UInt8(ascii: " "))
    fileprivate static let lineFeed = UInt16(UInt8(ascii: "\n"))
    fileprivate static let carriageReturn = UInt16(UInt8(ascii: "\r"))
}
