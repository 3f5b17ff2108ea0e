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
        for value in stack.reversed() {
            if case .object(let object) = value, let part = object.value(named: path[0]) {
                found = part
                break
            }
        }
        for name in path.dropFirst() {
            guard case .object(let object)? = found else { return nil }
            found = object.value(named: name)
        }
        return found
    }

    /// HTML's five special characters escaped; every other byte as it is (they are ASCII, so never
    /// part of a longer UTF-8 sequence).
    private mutating func append(escaping text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"): output += "&lt;".utf8
            case UInt8(ascii: ">"): output += "&gt;".utf8
            case UInt8(ascii: "&"): output += "&amp;".utf8
            case UInt8(ascii: "\""): output += "&quot;".utf8
            case UInt8(ascii: "'"): output += "&#39;".utf8
            default: output.append(byte)
            }
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
