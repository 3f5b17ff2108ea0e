/// One of the storefront's templates, read once: Mustache as our templates write it (values,
/// sections, inverted sections, partials, and a parent whose blocks a page fills), rendered
/// straight into bytes. Names are split at their dots when the template is read, values are
/// looked up through `TemplateObject` without reflection, and a line that holds nothing but a
/// section, partial, block or comment tag leaves no trace in the page, as Mustache asks.
struct PageTemplate: Sendable {
    enum Part: Sendable {
        case text([UInt8])
        case value([String], escaped: Bool)
        indirect case section([String], [Part], inverted: Bool)
        case partial(String)
        /// A parent template rendered with these blocks filled in.
        indirect case parent(String, blocks: [String: [Part]])
        /// A block a child may fill in, and what it shows otherwise.
        indirect case block(String, [Part])
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    let parts: [Part]

    init(parts: [Part]) {
        self.parts = parts
    }

    init(_ text: String) throws {
        var lexemes = try Self.standaloneLinesRemoved(try Self.lexemes(of: Array(text.utf8)))[...]
        parts = try Self.parts(of: &lexemes, until: nil)
    }

    // MARK: Reading

    private enum Sigil: UInt8 {
        case section = 35  // #
        case inverted = 94  // ^
        case close = 47  // /
        case partial = 62  // >
        case parent = 60  // <
        case block = 36  // $
        case comment = 33  // !
        case unescaped = 38  // &
        case triple = 123  // {
    }

    private enum Lexeme {
        case text(ArraySlice<UInt8>)
        case newline(ArraySlice<UInt8>)
        case tag(Sigil?, String)

        /// A tag that, alone on its line, takes the line with it.
        var standsAlone: Bool {
            guard case .tag(let sigil?, _) = self else { return false }
            return sigil != .unescaped && sigil != .triple
        }

        var isBlank: Bool {
            guard case .text(let bytes) = self else { return false }
            return bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        }

        var isNewline: Bool {
            if case .newline = self { true } else { false }
        }

        /// A tag whose template would have to be indented when it is.
        var indents: Bool {
            guard case .tag(let sigil?, _) = self else { return false }
            return sigil == .partial || sigil == .parent || sigil == .block
        }
    }

    private static func lexemes(of bytes: [UInt8]) throws -> [Lexeme] {
        var lexemes: [Lexeme] = []
        var index = 0
        var textStart = 0
        func endText(at end: Int) {
            if end > textStart { lexemes.append(.text(bytes[textStart..<end])) }
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                endText(at: index)
                lexemes.append(.newline(bytes[index...index]))
                index += 1
                textStart = index
            } else if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "\n")
            {
                endText(at: index)
                lexemes.append(.newline(bytes[index...index + 1]))
                index += 2
                textStart = index
            } else if bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{")
            {
                endText(at: index)
                var start = index + 2
                let sigil = start < bytes.count ? Sigil(rawValue: bytes[start]) : nil
                if sigil != nil { start += 1 }
                let closing = Array((sigil == .triple ? "}}}" : "}}").utf8)
                guard let end = Self.firstIndex(of: closing, in: bytes, from: start) else {
                    throw ParseError(description: "a tag is not closed")
                }
                let name = String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                guard sigil == .comment || !name.isEmpty else { throw ParseError(description: "a tag has no name") }
                lexemes.append(.tag(sigil, name))
                index = end + closing.count
                textStart = index
            } else {
                index += 1
            }
        }
        endText(at: index)
        return lexemes
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Drops the blanks and the line break around a tag that is alone on its line. Such a partial,
    /// parent or block must not be indented: its lines would have to be.
    private static func standaloneLinesRemoved(_ lexemes: [Lexeme]) throws -> [Lexeme] {
        var kept: [Lexeme] = []
        var line: [Lexeme] = []
        func endLine() throws {
            let tags = line.filter { if case .tag = $0 { true } else { false } }
            if tags.count == 1, tags[0].standsAlone, line.allSatisfy({ $0.isBlank || $0.standsAlone || $0.isNewline }) {
                if tags[0].indents, line.first?.isBlank == true {
                    throw ParseError(description: "a partial, parent or block alone on its line is indented")
                }
                kept.append(tags[0])
            } else {
                kept += line
            }
            line = []
        }
        for lexeme in lexemes {
            line.append(lexeme)
            if lexeme.isNewline { try endLine() }
        }
        try endLine()
        return kept
    }

    private static func parts(of lexemes: inout ArraySlice<Lexeme>, until closing: String?) throws -> [Part] {
        var parts: [Part] = []
        while let lexeme = lexemes.popFirst() {
            switch lexeme {
            case .text(let bytes), .newline(let bytes):
                if case .text(let previous) = parts.last {
                    parts[parts.count - 1] = .text(previous + bytes)
                } else {
                    parts.append(.text(Array(bytes)))
                }
            case .tag(let sigil, let name):
                switch sigil {
                case nil: parts.append(.value(Self.path(name), escaped: true))
                case .unescaped, .triple: parts.append(.value(Self.path(name), escaped: false))
                case .comment: break
                case .partial: parts.append(.partial(name))
                case .section, .inverted:
                    let inner = try Self.parts(of: &lexemes, until: name)
                    parts.append(.section(Self.path(name), inner, inverted: sigil == .inverted))
                case .block: parts.append(.block(name, try Self.parts(of: &lexemes, until: name)))
                case .parent:
                    var blocks: [String: [Part]] = [:]
                    for part in try Self.parts(of: &lexemes, until: name) {
                        switch part {
                        case .block(let block, let filling): blocks[block] = filling
                        case .text: break
                        default: throw ParseError(description: "only blocks may fill the parent \(name)")
                        }
                    }
                    parts.append(.parent(name, blocks: blocks))
                case .close:
                    guard name == closing else {
                        throw ParseError(
                            description: "{{/\(name)}} closes \(closing.map { "{{#\($0)}}" } ?? "nothing")")
                    }
                    return parts
                }
            }
        }
        guard closing == nil else { throw ParseError(description: "{{#\(closing ?? "")}} is not closed") }
        return parts
    }

    private static func path(_ name: String) -> [String] {
        name == "." ? ["."] : name.split(separator: ".").map(String.init)
    }
}
