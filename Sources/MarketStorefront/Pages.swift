import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared

/// The storefront's templates and assets, read once from the module's resources.
struct Pages: Sendable {
    struct TemplateMissing: Error {
        let name: String
    }

    /// The templates with each language's phrases and the assets' addresses written in.
    private let templates: [Language: PageTemplates]
    let assets: Assets
    /// Every phrase in every language the storefront speaks.
    let books: [Language: Words]

    init() throws {
        guard let root = Bundle.module.resourceURL?.appendingPathComponent("storefront") else {
            throw TemplateMissing(name: "storefront")
        }
        let folder = root.appendingPathComponent("templates")
        var templates: [String: PageTemplate] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".mustache") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            templates[String(file.dropLast(".mustache".count))] = try PageTemplate(text)
        }
        books = try Words.load(from: root.appendingPathComponent("words"))
        assets = try Assets(folder: root.appendingPathComponent("assets"))
        let read = PageTemplates(templates)
        let (books, assets) = (books, assets)
        self.templates = books.mapValues { words in
            read.with([
                "w": .object(words), "lang": .text(words.language.rawValue),
                "scriptWords": .text(Self.scriptWords(words)), "stylesheet": .text(assets.url(of: "storefront.css")),
                "script": .text(assets.url(of: "storefront.js")),
            ])
        }
    }

    /// A whole page: `template` filled from `content` inside the common layout.
    func page(
        _ template: String, title: String, visit: Visit, status: HTTPResponse.Status = .ok,
        content: [String: TemplateValue] = [:]
    ) -> Response {
        let html = html(template, title: title, visit: visit, content: content)
        var visit = visit
        visit.clearNotice()
        let headers = Self.headers(contentType: "text/html; charset=utf-8")
        return visit.finish(
            Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: html))))
    }

    /// The bytes of a page, as `page` answers with them.
    func html(_ template: String, title: String, visit: Visit, content: [String: TemplateValue]) -> [UInt8] {
        var context = content
        context["title"] = .text(title)
        context["otherLanguages"] = .objects(visit.otherLanguages)
        context["formToken"] = .text(visit.formToken)
        context["vendorName"] = visit.session.map { .text($0.name) }
        context["notice"] = visit.notice.map(TemplateValue.text)
        return templates[visit.language]?.render(template, .object(context))
            ?? Array("<!doctype html><title>\(template)</title>".utf8)
    }

    /// A piece of a page, without the layout, for a script to put in one already shown.
    func fragment(_ template: String, in language: Language, content: [String: TemplateValue]) -> [UInt8] {
        templates[language]?.render(template, .object(content)) ?? []
    }

    /// The phrases the script says itself.
    static let scriptPhrases = [
        "added", "sending", "offline", "remove", "removePhoto", "chosenPhoto", "atMostPhotos", "notAPicture",
        "megabytes", "kilobytes", "buyerPays", "photosChosen", "noPhotoChosen",
        "discountOverPrice", "liveOn", "liveArrived", "liveLost", "replayStatus", "replayFailed",
    ]

    /// The script's phrases as JSON that cannot end the `<script>` element it sits in.
    private static func scriptWords(_ words: Words) -> String {
        let phrases = Dictionary(uniqueKeysWithValues: scriptPhrases.map { ($0, words($0)) })
        // In a fixed order: the same page has the same bytes (and tag) on every server.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(phrases)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// Headers of every page: kept by no shared cache and asked for again each time (they show who
    /// is signed in), yet not `no-store`, so that Back returns to a catalogue scrolled three pages
    /// deep as it was left.
    static func headers(contentType: String) -> HTTPFields {
        [
            .contentType: contentType,
            .cacheControl: "private, no-cache",
            .referrerPolicy: "same-origin",
            // A page speaks the language the browser asks for, unless its visitor chose one.
            .vary: "Accept-Language, Cookie",
        ]
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

    init(folder: URL) throws {
        var files: [String: Asset] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let type = name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
            files[name] = Asset(data: data, hash: String(Digest.sha256Hex(data).prefix(16)), contentType: type)
        }
        self.files = files
    }

    func url(of name: String) -> String {
        "/assets/\(name)?v=\(files[name]?.hash ?? "0")"
    }

    func asset(named name: String) -> Asset? { files[name] }
}
