import Foundation

/// A JSON value as clients of the 2021–2022 APIs send it. Numbers keep their literal text so that
/// `1000`, `1000.0` and `"1000"` can all be read as the same whole amount.
package enum JSONValue: Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}

/// Reads JSON as the real servers tolerated it: raw control characters and stray quotes inside strings (JSON built
/// by string interpolation), empty values (`"price": ,`) and trailing commas; only senseless bodies are refused.
package struct LenientJSONParser {
    package struct Failure: Error {
        var offset: Int
        var reason: String
    }

    /// Deeper than any request needs; a deeper one is refused before it can exhaust the stack.
    package static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    package static func parse(_ data: Data) throws(Failure) -> JSONValue {
        var parser = LenientJSONParser(bytes: Array(data))
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw Failure(offset: parser.index, reason: "unexpected text after the JSON value")
        }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not part of the value.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// Steps over `character` if it comes next.
    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard current == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func value() throws(Failure) -> JSONValue {
        switch current {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            return number()
        case nil: throw Failure(offset: index, reason: "the body ends where a value should be")
        default: throw Failure(offset: index, reason: "unexpected character where a value should be")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        guard bytes[index...].starts(with: word.utf8) else {
            throw Failure(offset: index, reason: "unexpected word where a value should be")
        }
        index += word.utf8.count
        return value
    }

    private mutating func number() -> JSONValue {
        let start = index
        while let byte = current, "+-0123456789.eE".utf8.contains(byte) { index += 1 }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw Failure(offset: index, reason: "values are nested more than \(Self.maximumDepth) deep")
        }
        index += 1
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var members: [String: JSONValue] = [:]
        while true {
            skipWhitespace()
            if skip("}") { return .object(members) }
            guard current == UInt8(ascii: "\"") else {
                throw Failure(offset: index, reason: "expected a key in quotes")
            }
            let key = try string()
            skipWhitespace()
            guard skip(":") else { throw Failure(offset: index, reason: "expected ':' after a key") }
            skipWhitespace()
            // `"price": ,` — an interpolated empty value means no value.
            members[key] = (current == UInt8(ascii: ",") || current == UInt8(ascii: "}")) ? .null : try value()
            skipWhitespace()
            guard skip(",") || current == UInt8(ascii: "}") else {
                throw Failure(offset: index, reason: "expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        while true {
            skipWhitespace()
            if skip("]") { return .array(elements) }
            elements.append(try value())
            skipWhitespace()
            guard skip(",") || current == UInt8(ascii: "]") else {
                throw Failure(offset: index, reason: "expected ',' or ']' in an array")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var text: [UInt8] = []
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                // A quote closes the string only where JSON can go on after it; otherwise it was an
                // unescaped quote inside the text.
                if closesString() { return String(decoding: text, as: UTF8.self) }
                text.append(byte)
            case UInt8(ascii: "\\"): try escape(into: &text)
            default: text.append(byte)
            }
        }
        throw Failure(offset: index, reason: "a string is not closed")
    }

    private func closesString() -> Bool {
        var probe = index
        while probe < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[probe]) { probe += 1 }
        return probe == bytes.count || ",:}]".utf8.contains(bytes[probe])
    }

    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw Failure(offset: index, reason: "a string ends in a backslash") }
        index += 1
        switch byte {
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar), bytes[index...].starts(with: "\\u".utf8) {
                index += 2
                let low = try hexQuad()
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            text.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
        default: text.append(byte)
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw Failure(offset: index, reason: "a \\u escape needs four hex digits") }
        index += 4
        return value
    }
}
