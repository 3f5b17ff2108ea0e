import Foundation
import Testing

/// The pages' phrase books (the shared pages', the storefront's and the inspector's): Korean and
/// English say the same things, and every phrase a template or the script names is in both.
@Suite struct PhraseBookTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")
    static let folders = [
        "MarketPages/Resources/pages", "MarketStorefront/Resources/storefront", "MarketInspector/Resources/inspector",
    ].map { sources.appendingPathComponent($0) }

    /// Every module's phrases in `language`; a key in two modules is a mistake the test reports.
    func book(_ language: String) throws -> [String: String] {
        var phrases: [String: String] = [:]
        for folder in Self.folders {
            let data = try Data(contentsOf: folder.appendingPathComponent("words/\(language).json"))
            for (key, phrase) in try JSONDecoder().decode([String: String].self, from: data) {
                #expect(phrases[key] == nil, "\(key) is in two modules' phrases")
                phrases[key] = phrase
            }
        }
        return phrases
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
        for folder in Self.folders.map({ $0.appendingPathComponent("templates") }) {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: #/\{\{w\.([\w.]+)\}\}/#) {
                    #expect(english[String(match.1)] != nil, "\(file) names w.\(match.1)")
                }
            }
        }
        let script = try String(
            contentsOf: Self.folders[0].appendingPathComponent("assets/storefront.js"), encoding: .utf8)
        for match in script.matches(of: #/say\("(\w+)"/#) {
            #expect(english[String(match.1)] != nil, "the script says \(match.1)")
        }
    }
}
