import Testing

@testable import MarketStorefront

/// The storefront's templates as Mustache reads them: values escaped for HTML, sections that show,
/// hide or repeat, names looked up from the innermost section out, partials, a parent whose blocks
/// a page fills, and lines that hold only a tag leaving no trace.
@Suite struct PageTemplateTests {
    struct Card: TemplateObject {
        var name: String
        var price: String?

        func value(named key: String) -> TemplateValue? {
            switch key {
            case "name": .text(name)
            case "price": price.map(TemplateValue.text)
            default: nil
            }
        }
    }

    static func render(
        _ text: String, _ values: [String: TemplateValue], partials: [String: String] = [:]
    ) throws -> String {
        var templates = try partials.mapValues(PageTemplate.init)
        templates["page"] = try PageTemplate(text)
        let bytes = try #require(PageTemplates(templates).render("page", .object(values)))
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func valuesAreEscapedForHTMLUnlessAskedForAsTheyAre() throws {
        let values: [String: TemplateValue] = ["name": "<b>Tom & \"Jerry's\"</b>", "count": .number(12), "yes": true]
        #expect(
            try Self.render("{{name}}|{{{name}}}|{{&name}}|{{ count }}|{{yes}}|{{missing}}", values)
                == "&lt;b&gt;Tom &amp; &quot;Jerry&#39;s&quot;&lt;/b&gt;|<b>Tom & \"Jerry's\"</b>|<b>Tom & \"Jerry's\"</b>|12|true|"
        )
        #expect(try Self.render("{{name}}", ["name": "한국어 <e\u{301}>"]) == "한국어 &lt;e\u{301}&gt;")
    }

    @Test func sectionsShowHideAndRepeat() throws {
        let cards: TemplateValue = .objects([Card(name: "A", price: "1"), Card(name: "B", price: nil)])
        let values: [String: TemplateValue] = [
            "cards": cards, "none": .list([]), "on": true, "off": false, "empty": "", "price": "outer",
        ]
        #expect(try Self.render("{{#cards}}[{{name}} {{price}}]{{/cards}}", values) == "[A 1][B outer]")
        #expect(try Self.render("{{#on}}on{{/on}}{{#off}}off{{/off}}{{#missing}}x{{/missing}}", values) == "on")
        #expect(
            try Self.render("{{^none}}none{{/none}}{{^off}}off{{/off}}{{^missing}}gone{{/missing}}", values)
                == "noneoffgone")
        #expect(try Self.render("{{^cards}}x{{/cards}}{{^on}}x{{/on}}{{^empty}}x{{/empty}}", values) == "")
        #expect(try Self.render("{{#empty}}shown:{{.}}.{{/empty}}{{#price}}{{.}}{{/price}}", values) == "shown:.outer")
        #expect(try Self.render("{{#cards}}{{cards.name}}{{/cards}}{{card.name}}", values) == "")
    }

    @Test func dottedNamesLookInsideWhatTheirFirstNameFinds() throws {
        let values: [String: TemplateValue] = ["card": .object(Card(name: "Lamp", price: nil)), "price": "9"]
        #expect(try Self.render("{{card.name}} {{card.price}} {{#card}}{{price}}{{/card}}", values) == "Lamp  9")
    }

    @Test func aLineHoldingOnlyATagLeavesNoTrace() throws {
        let text = "<ul>\n  {{#on}}  \n  <li>{{name}}</li>\n  {{/on}}\n{{! a comment }}\n</ul>\n{{#on}}x{{/on}}\n"
        #expect(try Self.render(text, ["on": true, "name": "A"]) == "<ul>\n  <li>A</li>\n</ul>\nx\n")
        #expect(try Self.render("a\r\n{{#on}}\r\nb\r\n{{/on}}\r\n", ["on": true]) == "a\r\nb\r\n")
    }

    @Test func partialsAndAParentWhoseBlocksAPageFills() throws {
        let layout = "<title>{{$title}}Market{{/title}}</title>\n{{$main}}{{/main}}\n<footer>{{>sign}}</footer>\n"
        let page = "{{<layout}}\n{{$main}}\n<p>{{name}}</p>\n{{/main}}\n{{/layout}}\n"
        let rendered = try Self.render(page, ["name": "Lamp"], partials: ["layout": layout, "sign": "by {{name}}"])
        #expect(rendered == "<title>Market</title>\n<p>Lamp</p>\n\n<footer>by Lamp</footer>\n")
    }

    @Test func aTemplateThatCannotBeReadSaysWhy() {
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("{{#open}}never closed") }
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("{{#a}}{{/b}}") }
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("{{name") }
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("  {{>indented}}\n") }
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("{{<layout}}{{name}}{{/layout}}") }
    }
}
