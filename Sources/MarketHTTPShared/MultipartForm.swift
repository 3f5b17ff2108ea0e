import Foundation
import MarketCore
import NIOCore

/// A `multipart/form-data` body read as the 2021–2022 apps actually wrote it: with a CRLF preamble, without the final
/// CRLF, with `Content-Disposition:form-data` unspaced, with trailing spaces, unquoted or half-quoted parameters, raw
/// UTF-8 filenames, and delimiter lines that carry extra characters after the boundary.
package struct MultipartForm {
    /// A part's field name and bytes, and what it says of itself. The market trusts neither its
    /// filename nor its declared type; the inspector shows them.
    package struct Part {
        package var name: String
        package var filename: String?
        package var declaredType: String?
        /// The part's header lines as sent.
        package var head: [String]
        package var body: Data

        package var isFile: Bool { filename != nil }
    }

    package var parts: [Part]

    package static func boundary(in contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().contains("multipart/") else { return nil }
        return HeaderParameters.value(of: "boundary", in: contentType).flatMap { $0.isEmpty ? nil : $0 }
    }

    package init(body: Data, boundary: String) throws(MarketError) {
        let read = body.withUnsafeBytes { bytes in
            Result { () throws(MarketError) in try Self.parts(of: bytes, boundary: boundary) }
        }
        parts = try read.get()
    }

    package init(body: ByteBuffer, boundary: String) throws(MarketError) {
        let read = body.withUnsafeReadableBytes { bytes in
            Result { () throws(MarketError) in try Self.parts(of: bytes, boundary: boundary) }
        }
        parts = try read.get()
    }

    /// Read in place: a body of photos is not copied to be read, only each part's bytes once.
    private static func parts(of bytes: UnsafeRawBufferPointer, boundary: String) throws(MarketError) -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        guard var start = Self.find(delimiter, in: bytes, from: 0) else {
            throw MarketError(.invalid, .noBoundary(boundary))
        }
        var parts: [Part] = []
        while true {
            let lineEnd = Self.lineEnd(in: bytes, from: start + delimiter.count)
            // A line that ends in LF alone and is followed by CR: LF CR where CR LF belongs.
            if lineEnd.content == lineEnd.next - 1, lineEnd.next < bytes.count, bytes[lineEnd.next] == 0x0D {
                throw MarketError(.invalid, .lineBreaksReversed)
            }
            let rest = String(decoding: bytes[(start + delimiter.count)..<lineEnd.content], as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            if rest.hasSuffix("--") || lineEnd.next >= bytes.count { break }
            let (headers, head, bodyStart) = Self.headers(in: bytes, from: lineEnd.next)
            let next = Self.find([0x0A] + delimiter, in: bytes, from: bodyStart)
            var bodyEnd = next ?? bytes.count
            if next != nil, bodyEnd > bodyStart, bytes[bodyEnd - 1] == 0x0D { bodyEnd -= 1 }
            if let disposition = headers["content-disposition"],
                let name = HeaderParameters.value(of: "name", in: disposition)
            {
                parts.append(
                    Part(
                        name: name, filename: HeaderParameters.value(of: "filename", in: disposition),
                        declaredType: headers["content-type"], head: head,
                        body: Data(bytes[bodyStart..<max(bodyStart, bodyEnd)])))
            }
            guard let next else { break }
            start = next + 1
        }
        return parts
    }

    package func parts(named names: String...) -> [Part] { parts.filter { names.contains($0.name) } }

    /// The header lines of a part up to the blank line, read and as sent, and where its body starts.
    private static func headers(in bytes: UnsafeRawBufferPointer, from start: Int) -> ([String: String], [String], Int)
    {
        var headers: [String: String] = [:]
        var lines: [String] = []
        var position = start
        while position < bytes.count {
            let line = lineEnd(in: bytes, from: position)
            let text = String(decoding: bytes[position..<line.content], as: UTF8.self)
            position = line.next
            if text.trimmingCharacters(in: .whitespaces).isEmpty { break }
            lines.append(text)
            guard let colon = text.firstIndex(of: ":") else { continue }
            let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (headers, lines, position)
    }

    /// Where the line starting at `start` ends (before CR LF or LF) and where the next one begins.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> (content: Int, next: Int) {
        guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return (bytes.count, bytes.count) }
        let content = newline > start && bytes[newline - 1] == 0x0D ? newline - 1 : newline
        return (content, newline + 1)
    }

    /// Where `needle` first occurs at or after `start`, by `memchr` and `memcmp`: bodies of pictures are
    /// large and this runs once per boundary.
    package static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard let first = needle.first, start <= haystack.count else { return nil }
        return needle.withUnsafeBytes { needle in
            guard let base = haystack.baseAddress else { return nil }
            var position = start
            while haystack.count - position >= needle.count,
                let found = memchr(base + position, Int32(first), haystack.count - position - needle.count + 1)
            {
                let offset = UnsafeRawPointer(found) - base
                if memcmp(found, needle.baseAddress!, needle.count) == 0 { return offset }
                position = offset + 1
            }
            return nil
        }
    }
}

/// Reads `key=value` parameters of a header such as Content-Type or Content-Disposition, forgiving
/// missing or unbalanced quotes.
package enum HeaderParameters {
    package static func value(of key: String, in header: String) -> String? {
        let lowered = header.lowercased()
        var searchStart = lowered.startIndex
        while let found = lowered.range(of: key + "=", range: searchStart..<lowered.endIndex) {
            searchStart = found.upperBound
            // `name=` must not be the tail of `filename=`.
            if found.lowerBound > lowered.startIndex {
                let before = lowered[lowered.index(before: found.lowerBound)]
                guard before == ";" || before == " " || before == "\t" else { continue }
            }
            return parameterValue(header[found.upperBound...])
        }
        return nil
    }

    private static func parameterValue(_ text: Substring) -> String {
        guard text.first == "\"" else { return String(text.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces) }
        let quoted = text.dropFirst()
        // The value ends at the first quote that is followed by `;` or the end of the header.
        var index = quoted.startIndex
        while let quote = quoted[index...].firstIndex(of: "\"") {
            let after = quoted[quoted.index(after: quote)...].drop { $0 == " " || $0 == "\t" }
            if after.isEmpty || after.first == ";" { return String(quoted[..<quote]) }
            index = quoted.index(after: quote)
        }
        return String(quoted).trimmingCharacters(in: .whitespaces)
    }
}
