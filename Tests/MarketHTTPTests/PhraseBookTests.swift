import Foundation
import Testing

/// The storefront's phrase books: Korean and English say the same things, and every phrase a
/// template or the script names is in both.
@Suite struct PhraseBookTests {
    static let storefront = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/MarketStorefront/Resources/storefront")

    func book(_ language: String) throws -> [String: String] {
        let data = try Data(contentsOf: Self.storefront.appendingPathComponent("words/\(language).json"))
        return try JSONDecoder().decode([String: String].self, from: data)
    }

    @Test func bothLanguagesHaveEveryPhraseWithTheSamePlaceholders() throws {
        let korean = try book("ko")
        let english = try book("en")
        #expect(Set(korean.keys) == Set(english.keys))
        for (key, phrase) in english {
            let placeholders = { (text: String) in Set(text.matches(of: #/\{\w+\}/#).map { String($0.output) }) }
            #expect(placeholders(phrase) == placeholders(korean[key] ?? ""), "\(key)")
            #expect(
                korean[key] != phrase || key == "brand" || phrase.allSatisfy { !$0.isLetter }, "\(key) is translated")
        }
    }

    @Test func everyPhraseATemplateOrTheScriptNamesExists() throws {
        let english = try book("en")
        let folder = Self.storefront.appendingPathComponent("templates")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: #/\{\{w\.(\w+)\}\}/#) {
                #expect(english[String(match.1)] != nil, "\(file) names w.\(match.1)")
            }
        }
        let script = try String(
            contentsOf: Self.storefront.appendingPathComponent("assets/storefront.js"), encoding: .utf8)
        for match in script.matches(of: #/say\("(\w+)"/#) {
            #expect(english[String(match.1)] != nil, "the script says \(match.1)")
        }
    }
}
