import Foundation

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
        guard start.count > segment.count + 1, start.prefix(segment.count).lowercased() == segment,
            start.dropFirst(segment.count).first == "/"
        else { return nil }
        let number = start.dropFirst(segment.count + 1)
        let digits = number.prefix { $0.isASCII && $0.isNumber }
        let rest = number.dropFirst(digits.count)
        guard let vendorID = Int64(digits), rest.isEmpty || rest.first == "/" || rest.first == "?" else { return nil }
        return (vendorID, rest)
    }
}

/// Ports of the teams' own, for apps that set a URL's path apart from its host and so drop a team
/// address's path: vendor_id N is reached on `first + N - 1`, while that is `last` or below.
public struct TeamPorts: Sendable, Equatable {
    public let ports: ClosedRange<Int>

    /// `8101-8140`, or one port; nil for anything else.
    public init?(_ text: String) {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard (1...2).contains(bounds.count), let first = bounds[0], let last = bounds[bounds.count - 1],
            1 <= first, first <= last, last <= 65_535
        else { return nil }
        ports = first...last
    }

    public func port(of vendorID: Int64) -> Int? {
        guard vendorID >= 1, vendorID <= Int64(ports.count) else { return nil }
        return ports.lowerBound + Int(vendorID) - 1
    }

    public func vendorID(atPort port: Int) -> Int64? { ports.contains(port) ? Int64(port - ports.lowerBound + 1) : nil }

    /// The team's address on its own port of the host in `origin` (`http://host:port`).
    public func url(of vendorID: Int64, on origin: String) -> String? {
        guard let port = port(of: vendorID), let url = URL(string: origin), let host = url.host else { return nil }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(url.scheme ?? "http")://\(bracketed):\(port)"
    }
}
