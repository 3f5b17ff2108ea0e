import Foundation

/// What stands in a record, a log line or a resend command where a secret was.
package let secretMask = "•••"

extension String {
    /// This path with every UUID-shaped segment (a delete secret, in any of its spellings) masked,
    /// for a record or a log line.
    package var maskingSecrets: String {
        guard mayHoldSecret else { return self }
        return split(separator: "/", omittingEmptySubsequences: false).map { segment in
            UUID(uuidString: segment.removingPercentEncoding ?? String(segment)) != nil ? secretMask : String(segment)
        }.joined(separator: "/")
    }

    /// Some segment may be a UUID: most paths have none, and are not split to find out.
    private var mayHoldSecret: Bool {
        var (length, escaped) = (0, false)
        for byte in utf8 {
            if byte == UInt8(ascii: "/") {
                if Self.uuidShaped(length: length, escaped: escaped) { return true }
                (length, escaped) = (0, false)
            } else {
                length += 1
                escaped = escaped || byte == UInt8(ascii: "%")
            }
        }
        return Self.uuidShaped(length: length, escaped: escaped)
    }

    /// A UUID has 36 characters; written with percent escapes, more (and a `%`).
    private static func uuidShaped(length: Int, escaped: Bool) -> Bool {
        length == 36 || (length > 36 && escaped)
    }
}
