import HTTPTypes

/// What the front desk's wire reads at the start of a connection's unread bytes: it delimits
/// requests without bodies, and reads a plain GET into the form SwiftNIO's parser and
/// `HTTP1ToHTTPServerCodec` would give the router. It is strict: whatever it is unsure of is left
/// to SwiftNIO's parser, which decides.
enum WireRequest {
    /// A whole request without a body, `length` bytes long. `plain` when it is a GET over HTTP/1.1,
    /// kept alive, that asks nothing of the server first (no `Expect`), read as the router would.
    case whole(length: Int, plain: HTTPRequest?)
    /// The end of its head has not come yet.
    case partial
    /// A body, an upgrade, another version of HTTP, a head too long, or bytes the wire does not
    /// read: SwiftNIO's parser is left the connection from here on.
    case unsure

    /// Longer heads are the parser's (it has its own limits and answers them).
    static let longestHead = 16 * 1024
    private static let mostFields = 100

    init(reading bytes: UnsafeRawBufferPointer) {
        switch Self.endOfHead(in: bytes) {
        case nil: self = bytes.count > Self.longestHead ? .unsure : .partial
        case 0: self = .unsure
        case let end?: self = Self.read(UnsafeRawBufferPointer(rebasing: bytes[..<end]), length: end + 2)
        }
    }

    /// Where the head's empty line starts (after the last field's CRLF); nil before it has come.
    /// 0 for a head the parser should read: one that starts with an empty line, or has a line
    /// feed without a carriage return before it.
    private static func endOfHead(in bytes: UnsafeRawBufferPointer) -> Int? {
        var lineStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            guard index > 0, bytes[index - 1] == UInt8(ascii: "\r") else { return 0 }
            if index - 1 == lineStart { return lineStart }
            lineStart = index + 1
        }
        return nil
    }

    /// Reads the lines of a head, each ending in CRLF, the last CRLF included in `head`.
    private static func read(_ head: UnsafeRawBufferPointer, length: Int) -> WireRequest {
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        guard let requestLine = lines.popFirst()?.dropLast(), !requestLine.isEmpty else { return .unsure }
        let parts = requestLine.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].allSatisfy(isTokenByte), !parts[0].isEmpty,
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !parts[1].isEmpty, parts[2].elementsEqual("HTTP/1.1".utf8)
        else { return .unsure }
        var plain =
            parts[0].elementsEqual("GET".utf8) && parts[1].first == UInt8(ascii: "/") && lines.count <= mostFields
        var authority: String?
        var fields = HTTPFields()
        for line in lines {
            let line = line.dropLast()
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .unsure }
            let name = line[..<colon]
            let value = trimmed(line[(colon + 1)...])
            guard !name.isEmpty, name.allSatisfy(isTokenByte),
                value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) })
            else { return .unsure }
            if spells(name, "content-length") || spells(name, "transfer-encoding") || spells(name, "upgrade") {
                return .unsure
            }
            if spells(name, "connection") { plain = plain && spells(value, "keep-alive") }
            if spells(name, "expect") { plain = false }
            if spells(name, "host") {
                guard authority == nil else {
                    plain = false
                    continue
                }
                authority = text(value)
                continue
            }
            guard plain else { continue }
            guard value.allSatisfy({ $0 < 0x80 }), let fieldName = HTTPField.Name(text(name)) else {
                plain = false
                continue
            }
            fields.append(HTTPField(name: fieldName, value: text(value)))
        }
        guard plain else { return .whole(length: length, plain: nil) }
        let request = HTTPRequest(
            method: .get, scheme: "http", authority: authority, path: text(parts[1]), headerFields: fields)
        return .whole(length: length, plain: request)
    }

    private typealias Bytes = Slice<UnsafeRawBufferPointer>

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func trimmed(_ bytes: Bytes) -> Bytes {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    private static func text(_ bytes: Bytes) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// The bytes spell `lowercase`, in any case.
    private static func spells(_ bytes: Bytes, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        var letter = lowercase.utf8Start
        for byte in bytes {
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard folded == letter.pointee else { return false }
            letter += 1
        }
        return true
    }
}
