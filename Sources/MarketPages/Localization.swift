import Foundation
import MarketModel
import Mustache

/// The pages' phrases in one language, read from each module's `words/<language>.json`. A template
/// names a phrase as `{{w.key}}`; Swift fills a phrase's `{placeholders}` with `strings("key", ["name": …])`.
package struct Localization: Sendable {
    /// A phrase, split at its `{placeholders}` once, when it is read.
    private struct Phrase: Sendable {
        enum Piece: Sendable {
            case text(Substring)
            case placeholder(Substring)
        }

        let text: String
        let pieces: [Piece]

        init(_ text: String) {
            self.text = text
            var pieces: [Piece] = []
            var rest = text[...]
            // Braces are ASCII: searched for as bytes, not as characters.
            while let open = rest.utf8.firstIndex(of: UInt8(ascii: "{")),
                let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: "}"))
            {
                pieces.append(.text(rest[..<open]))
                pieces.append(.placeholder(rest[rest.utf8.index(after: open)..<close]))
                rest = rest[rest.utf8.index(after: close)...]
            }
            pieces.append(.text(rest))
            self.pieces = pieces
        }
    }

    package let language: Language
    private let phrases: [String: Phrase]
    /// Numbers said without their thousands grouped ("1200"), as the inspector's JSON twin says them.
    package let plainNumbers: Bool

    package init(language: Language, phrases: [String: String], plainNumbers: Bool = false) {
        self.language = language
        self.phrases = phrases.mapValues(Phrase.init)
        self.plainNumbers = plainNumbers
    }

    /// The phrase `key` with each `{name}` replaced by its value (left as it is when `values` has
    /// none); the key itself when the phrase is missing, which a test catches.
    package func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        guard let phrase = phrases[key] else { return key }
        guard !values.isEmpty, phrase.pieces.count > 1 else { return phrase.text }
        var said = ""
        said.reserveCapacity(phrase.text.utf8.count + 32)
        for piece in phrase.pieces {
            switch piece {
            case .text(let text): said += text
            case .placeholder(let name):
                if let value = values[String(name)] {
                    said += value
                } else if let (of, particle) = Self.particle(name), let value = values[String(of)] {
                    said += Self.particle(particle, after: value)
                } else {
                    said += "{" + name + "}"
                }
            }
        }
        return said
    }

    /// `{name~을}` says only the particle that follows the value of `name`: 을 or 를, 은 or 는, 이 or
    /// 가, 과 or 와, 으로 or 로, as Korean chooses by how that value ends.
    private static func particle(_ placeholder: Substring) -> (of: Substring, particle: Substring)? {
        guard let tilde = placeholder.firstIndex(of: "~") else { return nil }
        return (placeholder[..<tilde], placeholder[placeholder.index(after: tilde)...])
    }

    private static let particles: [Substring: (afterConsonant: String, afterVowel: String)] = [
        "을": ("을", "를"), "은": ("은", "는"), "이": ("이", "가"), "과": ("과", "와"), "으로": ("으로", "로"),
    ]

    package static func particle(_ particle: Substring, after value: String) -> String {
        guard let forms = particles[particle] else { return String(particle) }
        let final = finalConsonant(of: value)
        // 으로 follows a vowel and ㄹ alike as 로.
        if particle == "으로" { return final == nil || final == .rieul ? forms.afterVowel : forms.afterConsonant }
        return final == nil ? forms.afterVowel : forms.afterConsonant
    }

    private enum FinalConsonant { case rieul, other }

    /// How `value` ends when read aloud: a Hangul syllable by its final consonant, a number as
    /// Koreans say it (13 십삼, 10 십; 1 일, 7 칠, 8 팔), but one digit right after a Latin letter
    /// in English, as in a model name (M3 엠쓰리, A7 에이세븐, PS5 피에스파이브), a Latin letter by its
    /// Korean name (L 엘, M 엠, N 엔), anything else by the last character before it that says something.
    private static func finalConsonant(of value: String) -> FinalConsonant? {
        let scalars = Array(value.unicodeScalars)
        for (index, scalar) in scalars.enumerated().reversed() {
            switch scalar.value {
            case 0xAC00...0xD7A3:
                let final = (scalar.value - 0xAC00) % 28
                return final == 0 ? nil : final == 8 ? .rieul : .other
            case 0x30...0x39:
                let digit = Character(scalar)
                if index > 0, scalars[index - 1].isASCII, scalars[index - 1].properties.isAlphabetic {
                    return ["1", "7", "8", "9"].contains(digit) ? .other : nil
                }
                return ["1", "7", "8"].contains(digit) ? .rieul : ["0", "3", "6"].contains(digit) ? .other : nil
            case 0x41...0x5A, 0x61...0x7A:
                let letter = Character(scalar).lowercased()
                return letter == "l" ? .rieul : ["m", "n"].contains(letter) ? .other : nil
            default:
                continue
            }
        }
        return nil
    }

    /// A count of products: "1 product", "12 products", "12개".
    package func products(_ count: Int) -> String {
        count == 1 ? self("oneProduct") : self("products", ["count": Self.grouped(Int64(count))])
    }

    package static func grouped(_ number: Int64) -> String {
        let digits = String(number.magnitude)
        var grouped = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped
    }

    package func number(_ number: Int) -> String { plainNumbers ? String(number) : Self.grouped(Int64(number)) }

    /// An amount as people here read it: 12,000원 in Korean, ₩12,000 in English; US$4 in both.
    package func money(_ amount: Int64, _ currency: Currency) -> String {
        let number = Self.grouped(amount)
        switch (currency, language) {
        case (.krw, .ko): return "\(number)원"
        case (.krw, .en): return "₩\(number)"
        case (.usd, _): return "US$\(number)"
        }
    }

    /// Bytes as megabytes with one decimal: 14.6.
    package static func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}

extension Localization: MustacheParent {
    /// `{{w.key}}` in a template: the phrase as written.
    package func child(named key: String) -> Any? { phrases[key]?.text }
}
