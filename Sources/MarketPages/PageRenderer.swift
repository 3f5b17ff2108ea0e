import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import Mustache

/// The pages' templates, phrases and assets, read once from every page-serving module's resources.
package struct PageRenderer: Sendable {
    package struct TemplateError: Error, CustomStringConvertible { package let description: String }

    private let library: MustacheLibrary
    let assets: Assets
    package let localizations: [Language: Localization]
    /// What every page of a language shows alike: its phrases and script phrases, the assets' addresses.
    private let shared: [Language: Shared]

    private struct Shared: Sendable {
        var strings: Localization
        var stylesheet: String
        var script: String
        var scriptWords: String

        var content: PageContent {
            [
                "w": strings, "lang": strings.language.rawValue, "stylesheet": stylesheet, "script": script,
                "scriptWords": scriptWords,
            ]
        }
    }

    /// `folders` each hold `templates/*.mustache` and `words/<language>.json`, and may hold `assets/`.
    package init(folders: [URL]) throws {
        MustacheContentTypes.register(PageHTML(), named: PageHTML.name)
        var library = MustacheLibrary()
        var phrases: [Language: [String: String]] = [:]
        var assetFolders: [URL] = []
        let files = FileManager.default
        for folder in folders {
            let templates = folder.appendingPathComponent("templates")
            for file in try files.contentsOfDirectory(atPath: templates.path) where file.hasSuffix(".mustache") {
                let name = String(file.dropLast(".mustache".count))
                do {
                    let source = try String(contentsOf: templates.appendingPathComponent(file), encoding: .utf8)
                    try library.register("{{% CONTENT_TYPE: \(PageHTML.name)}}" + source, named: name)
                } catch {
                    throw TemplateError(description: "template \(name): \(error)")
                }
            }
            for language in Language.allCases {
                let data = try Data(contentsOf: folder.appendingPathComponent("words/\(language.rawValue).json"))
                let words = try JSONDecoder().decode([String: String].self, from: data)
                phrases[language, default: [:]].merge(words) { _, new in new }
            }
            let assets = folder.appendingPathComponent("assets")
            if files.fileExists(atPath: assets.path) { assetFolders.append(assets) }
        }
        let assets = try Assets(folders: assetFolders)
        let localizations = Dictionary(
            uniqueKeysWithValues: Language.allCases.map {
                ($0, Localization(language: $0, phrases: phrases[$0] ?? [:]))
            })
        shared = localizations.mapValues { strings in
            Shared(
                strings: strings, stylesheet: assets.url(of: "storefront.css"), script: assets.url(of: "storefront.js"),
                scriptWords: Self.scriptWords(strings))
        }
        (self.library, self.assets, self.localizations) = (library, assets, localizations)
    }

    /// A whole page: `template` filled from `content` inside the common layout.
    package func page(
        _ template: String, title: String, browser: BrowserSession, status: HTTPResponse.Status = .ok,
        content: PageContent = [:]
    ) -> Response {
        var content = content
        content["title"] = title
        content["otherLanguages"] = browser.otherLanguages
        content["formToken"] = browser.formToken
        content["vendorName"] = browser.session?.name
        content["notice"] = browser.notice
        let html = render(template, in: browser.language, content: content)
        var browser = browser
        browser.clearNotice()
        return browser.finish(
            Response(
                status: status, headers: Self.headers(contentType: "text/html; charset=utf-8"),
                body: .init(byteBuffer: ByteBuffer(string: html))))
    }

    /// `template` filled from `content`, without anything added: a piece of a page for a script.
    package func render(_ template: String, in language: Language, content: PageContent) -> String {
        library.render(content.adding(shared[language]?.content ?? [:]), withTemplate: template)
            ?? "<!doctype html><title>\(template)</title>"
    }

    static let scriptPhrases = [
        "added", "sending", "offline", "remove", "removePhoto", "chosenPhoto", "onePhotoLeftOut", "photosLeftOut",
        "storedAsJPEG", "notAPicture", "megabytes", "kilobytes", "buyerPays", "photosChosen", "noPhotoChosen",
        "discountOverPrice", "liveOn", "liveArrived", "liveLost", "replayStatus", "replayFailed",
    ]

    /// The script's phrases as JSON that cannot end the `<script>` element it sits in.
    private static func scriptWords(_ strings: Localization) -> String {
        let phrases = Dictionary(uniqueKeysWithValues: scriptPhrases.map { ($0, strings($0)) })
        // In a fixed order: the same page has the same bytes (and tag) on every server.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(phrases)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// A moment as the inspector, the board and the console show it, as `<time datetime="{{at}}">{{time}}</time>`:
    /// the time of day, which the pages' script says in the reader's own zone (a learner's and a teacher's may
    /// differ from the market's); without the script, in UTC and said so.
    package static func moment(_ date: Date) -> PageContent {
        ["at": date.formatted(.iso8601), "time": timeOfDay.string(from: date) + " UTC"]
    }

    private static let timeOfDay: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }()

    /// Headers of every page: private and revalidated, as pages show who is signed in, yet not
    /// `no-store`, so that Back returns to a scrolled catalogue as it was left.
    package static func headers(contentType: String) -> HTTPFields {
        [
            .contentType: contentType,
            .cacheControl: "private, no-cache",
            .referrerPolicy: "same-origin",
            // A page speaks the language the browser asks for, unless its visitor chose one.
            .vary: "Accept-Language, Cookie",
        ]
    }
}

/// A page's values by name, written as a dictionary literal. A name whose value is nil is not
/// there, as with a struct's optional property, and the template looks further out.
package struct PageContent: MustacheParent, ExpressibleByDictionaryLiteral {
    private var values: [String: Any]

    package init(dictionaryLiteral elements: (String, Any?)...) {
        values = [:]
        for (name, value) in elements { values[name] = value }
    }

    package subscript(name: String) -> Any? {
        get { values[name] }
        set { values[name] = newValue }
    }

    package func child(named name: String) -> Any? { values[name] }

    /// These values, with `shared`'s where these have none.
    func adding(_ shared: PageContent) -> PageContent {
        var content = self
        content.values.merge(shared.values) { own, _ in own }
        return content
    }
}

/// HTML escaped by Unicode scalar: swift-mustache's own escaping compares whole characters, and would
/// pass a `<` that a combining mark follows.
struct PageHTML: MustacheContentType {
    static let name = "PAGE_HTML"

    func escapeText(_ text: String) -> String { text.htmlEscaped }
}

extension String {
    /// HTML's special characters escaped, each Unicode scalar on its own.
    var htmlEscaped: String {
        guard utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x22 || $0 == 0x27 }) else {
            return self
        }
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for character in unicodeScalars {
            switch character {
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

/// The stylesheet and script, served under their content hash so browsers may keep them for good.
struct Assets: Sendable {
    struct Asset: Sendable {
        var data: Data
        var hash: String
        var contentType: String
    }

    private let files: [String: Asset]

    init(folders: [URL]) throws {
        var files: [String: Asset] = [:]
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                let type = name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
                files[name] = Asset(data: data, hash: String(Digest.sha256Hex(data).prefix(16)), contentType: type)
            }
        }
        self.files = files
    }

    func url(of name: String) -> String { "/assets/\(name)?v=\(files[name]?.hash ?? "0")" }

    /// The asset as a response browsers may keep for good: its address changes with its bytes.
    func response(named name: String) throws -> Response {
        guard let asset = files[name] else { throw HTTPError(.notFound) }
        return Response(
            status: .ok,
            headers: [.contentType: asset.contentType, .cacheControl: "public, max-age=31536000, immutable"],
            body: .init(byteBuffer: ByteBuffer(bytes: asset.data)))
    }
}
