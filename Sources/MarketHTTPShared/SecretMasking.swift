import Foundation
import HTTPTypes

/// What stands in a record, a log line or a resend command where a secret was.
package let secretMask = "•••"

extension StringProtocol {
    /// Whether a query's, a JSON body's or a form part's name carries a secret: any name that speaks of
    /// one (`secret`, `product_secret`, `secretKey`, `Password`), whether the market reads it or not.
    package var namesSecret: Bool {
        let name = lowercased()
        return name.contains("secret") || name.contains("password")
    }
}

extension String {
    /// This request target (a path, maybe with a query) with what may be a secret masked, for a record,
    /// a log line or a refusal: every UUID-shaped segment (a delete secret, in any of its spellings), the
    /// values of a query's secret names, and in a DELETE the segment after a product's id whatever its
    /// shape, where some apps send the vendor's secret instead of the delete secret.
    package func maskingSecrets(sentWith method: HTTPRequest.Method? = nil) -> String {
        let path = prefix { $0 != "?" }
        let query = path.endIndex < endIndex ? self[index(after: path.endIndex)...] : nil
        let deletes = method == .delete && path.contains("products/")
        let pathMayHoldSecret = deletes || Self.mayHoldUUID(path)
        // Most targets hold nothing to mask: they are given back as they are, with nothing made.
        guard pathMayHoldSecret || query != nil else { return self }
        let masked = pathMayHoldSecret ? Self.masked(path: path, deletes: deletes) : String(path)
        return query.map { masked + "?" + Self.masked(query: $0) } ?? masked
    }

    private static func masked(path: Substring, deletes: Bool) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return segments.indices.map { index in
            let segment = segments[index]
            let afterProductID =
                deletes && index >= 2 && segments[index - 2] == "products"
                && !segments[index - 1].isEmpty && segments[index - 1].allSatisfy(\.isNumber)
            let isSecret =
                (afterProductID && !segment.isEmpty)
                || (uuidShaped(length: segment.utf8.count, escaped: segment.utf8.contains(UInt8(ascii: "%")))
                    && UUID(uuidString: segment.removingPercentEncoding ?? String(segment)) != nil)
            return isSecret ? secretMask : String(segment)
        }.joined(separator: "/")
    }

    private static func masked(query: Substring) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let name = pair.prefix { $0 != "=" }
            let isSecret = (name.removingPercentEncoding ?? String(name)).namesSecret
            return isSecret && name.count < pair.count ? "\(name)=\(secretMask)" : String(pair)
        }.joined(separator: "&")
    }

    /// Some segment may be a UUID: most paths have none, and are not split to find out.
    private static func mayHoldUUID(_ path: Substring) -> Bool {
        var (length, escaped) = (0, false)
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if uuidShaped(length: length, escaped: escaped) { return true }
                (length, escaped) = (0, false)
            } else {
                length += 1
                escaped = escaped || byte == UInt8(ascii: "%")
            }
        }
        return uuidShaped(length: length, escaped: escaped)
    }

    /// A UUID has 36 characters; written with percent escapes, more (and a `%`).
    private static func uuidShaped(length: Int, escaped: Bool) -> Bool { length == 36 || (length > 36 && escaped) }
}
