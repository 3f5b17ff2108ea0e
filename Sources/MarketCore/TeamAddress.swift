/// A team's own address: the market's address followed by `/teams/<vendor_id>`. An app that takes
/// it as its base URL has every request it sends, reads and pictures included, kept in that
/// vendor's inspector and given that vendor's rehearsed faults, whether or not it names the vendor.
public enum TeamAddress {
    public static let segment = "teams"

    public static func path(of vendorID: Int64) -> String { "/\(segment)/\(vendorID)" }

    /// The team address of `vendorID` on a market reached at `origin` (`http://host:port`).
    public static func url(of vendorID: Int64, on origin: String) -> String { origin + path(of: vendorID) }

    /// The vendor_id a path starting with a team address names, and the rest of the path (with
    /// its query), as the market's own address would take it; nil when the path names no team.
    public static func split(_ path: Substring) -> (vendorID: Int64, rest: Substring)? {
        let start = path.drop { $0 == "/" }
        guard start.count > segment.count + 1,
            start.prefix(segment.count).lowercased() == segment,
            start.dropFirst(segment.count).first == "/"
        else { return nil }
        let number = start.dropFirst(segment.count + 1)
        let digits = number.prefix { $0.isASCII && $0.isNumber }
        let rest = number.dropFirst(digits.count)
        guard let vendorID = Int64(digits), rest.isEmpty || rest.first == "/" || rest.first == "?" else { return nil }
        return (vendorID, rest)
    }
}
