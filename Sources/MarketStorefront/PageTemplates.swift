/// What a template shows: text (escaped for HTML unless the template asks for it as it is), a yes
/// or no that a section shows or hides, a list whose items a section shows one after another, or
/// a thing whose parts the template names (`{{tag.price}}`).
enum TemplateValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    case text(String)
    case flag(Bool)
    case list([TemplateValue])
    case object(any TemplateObject)

    init(stringLiteral text: String) { self = .text(text) }
    init(booleanLiteral flag: Bool) { self = .flag(flag) }

    static func number(_ number: some BinaryInteger) -> TemplateValue { .text(String(number)) }

    /// A list of things with parts.
    static func objects(_ objects: [some TemplateObject]) -> TemplateValue { .list(objects.map { .object($0) }) }
}

/// A thing a template names the parts of.
protocol TemplateObject {
    /// The part called `name`, or nil when there is none: the template then looks further out.
    func value(named name: String) -> TemplateValue?
}

extension Dictionary: TemplateObject where Key == String, Value == TemplateValue {
    func value(named name: String) -> TemplateValue? { self[name] }
}

/// The storefront's templates by name, each rendered with its partials and its parent.
struct PageTemplates: Sendable {
    private let templates: [String: PageTemplate]

    init(_ templates: [String: PageTemplate]) {
        self.templates = templates
    }

    /// The same templates with the values named in `constants` written in once, for pages that
    /// all give those names the same values (a language's phrases, the stylesheet's address): a
    /// page then spends nothing on looking them up. No value inside a page may use those names.
    func with(_ constants: [String: TemplateValue]) -> PageTemplates {
        PageTemplates(templates.mapValues { PageTemplate(parts: Self.parts($0.parts, with: constants)) })
    }

    private static func parts(_ parts: [PageTemplate.Part], with constants: [String: TemplateValue]) -> [PageTemplate
        .Part]
    {
        var written: [PageTemplate.Part] = []
        for part in parts {
            let part: PageTemplate.Part =
                switch part {
                case .value(let path, _) where constants[path[0]] != nil:
                    .text(Rendering.output(of: part, with: constants))
                case .section(let path, let inner, let inverted):
                    .section(path, Self.parts(inner, with: constants), inverted: inverted)
                case .parent(let name, let blocks):
                    .parent(name, blocks: blocks.mapValues { Self.parts($0, with: constants) })
                case .block(let name, let otherwise): .block(name, Self.parts(otherwise, with: constants))
                case .text, .value, .partial: part
                }
            if case .text(let bytes) = part, case .text(let before) = written.last {
                written[written.count - 1] = .text(before + bytes)
            } else {
                written.append(part)
            }
        }
        return written
    }

    /// `name` filled from `root`; nil when there is no such template.
    func render(_ name: String, _ root: TemplateValue) -> [UInt8]? {
        guard let template = templates[name] else { return nil }
        var rendering = Rendering(templates: templates, stack: [root])
        rendering.output.reserveCapacity(8192)
        rendering.render(template.parts, blocks: [:])
        return rendering.output
    }
}

private struct Rendering {
    let templates: [String: PageTemplate]
    /// The values sections opened, innermost last: a name is looked up from the innermost out.
    var stack: [TemplateValue]
    var output: [UInt8] = []

    mutating func render(_ parts: [PageTemplate.Part], blocks: [String: [PageTemplate.Part]]) {
        for part in parts {
            switch part {
            case .text(let bytes):
                output += bytes
            case .value(let path, let escaped):
                switch lookUp(path) {
                case .text(let text)?: escaped ? append(escaping: text) : output.append(contentsOf: text.utf8)
                case .flag(let flag)?: output.append(contentsOf: (flag ? "true" : "false").utf8)
                case .list?, .object?, nil: break
                }
            case .section(let path, let inner, let inverted):
                let value = lookUp(path)
                if inverted {
                    if value.isEmpty { render(inner, blocks: blocks) }
                    continue
                }
                switch value {
                case nil, .flag(false)?: break
                case .flag(true)?: render(inner, blocks: blocks)
                case .list(let items)?:
                    for item in items { renderInside(item, inner, blocks: blocks) }
                case let value?: renderInside(value, inner, blocks: blocks)
                }
            case .partial(let name):
                if let template = templates[name] { render(template.parts, blocks: blocks) }
            case .parent(let name, let filled):
                // The outermost filling of a block wins.
                if let template = templates[name] {
                    render(template.parts, blocks: blocks.merging(filled) { outer, _ in outer })
                }
            case .block(let name, let otherwise):
                render(blocks[name] ?? otherwise, blocks: blocks)
            }
        }
    }

    /// What `part` shows with only `values` to look in.
    static func output(of part: PageTemplate.Part, with values: [String: TemplateValue]) -> [UInt8] {
        var rendering = Rendering(templates: [:], stack: [.object(values)])
        rendering.render([part], blocks: [:])
        return rendering.output
    }

    private mutating func renderInside(
        _ value: TemplateValue, _ parts: [PageTemplate.Part], blocks: [String: [PageTemplate.Part]]
    ) {
        stack.append(value)
        render(parts, blocks: blocks)
        stack.removeLast()
    }

    /// The first part of the path from the innermost value out that has it, then the rest within it.
    private func lookUp(_ path: [String]) -> TemplateValue? {
        guard path[0] != "." else { return stack.last }
        var found: TemplateValue?
        var index = stack.count - 1
        while found == nil, index >= 0 {
            if case .object(let object) = stack[index] { found = object.value(named: path[0]) }
            index -= 1
        }
        for name in path.dropFirst() {
            guard case .object(let object)? = found else { return nil }
            found = object.value(named: name)
        }
        return found
    }

    /// HTML's five special characters escaped; every other byte as it is (they are ASCII, so never
    /// part of a longer UTF-8 sequence). Runs without one are copied whole.
    private mutating func append(escaping text: String) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let escaped: StaticString
                switch bytes[index] {
                case UInt8(ascii: "<"): escaped = "&lt;"
                case UInt8(ascii: ">"): escaped = "&gt;"
                case UInt8(ascii: "&"): escaped = "&amp;"
                case UInt8(ascii: "\""): escaped = "&quot;"
                case UInt8(ascii: "'"): escaped = "&#39;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                output.append(
                    contentsOf: UnsafeBufferPointer(start: escaped.utf8Start, count: escaped.utf8CodeUnitCount))
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }
}

extension Optional where Wrapped == TemplateValue {
    /// What an inverted section shows for: nothing, no, or an empty list.
    fileprivate var isEmpty: Bool {
        switch self {
        case nil, .flag(false)?: true
        case .list(let items)?: items.isEmpty
        default: false
        }
    }
}
